//! robots.txt, fetched once per origin and cached for the process.

use std::collections::HashMap;
use std::sync::Arc;

use reqwest::Client;
use texting_robots::Robot;
use tokio::sync::Mutex;
use url::Url;

/// What we know of one origin's robots.txt.
#[derive(Debug)]
enum Rules {
    /// No usable robots.txt (404, network error, unparsable): everything is allowed.
    AllowAll,
    /// Parsed rules.
    Parsed(Box<Robot>),
}

/// A per-origin cache of robots.txt rules.
#[derive(Clone)]
pub struct RobotsCache {
    client: Client,
    user_agent: String,
    origins: Arc<Mutex<HashMap<String, Arc<Rules>>>>,
}

impl std::fmt::Debug for RobotsCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RobotsCache")
            .field("user_agent", &self.user_agent)
            .finish_non_exhaustive()
    }
}

/// Largest robots.txt read; the rest is ignored, as Google does past 500 KiB.
const MAX_ROBOTS_BYTES: usize = 512 * 1024;

impl RobotsCache {
    /// A cache that fetches with `client` and matches rules for `user_agent`.
    pub fn new(client: Client, user_agent: String) -> Self {
        Self {
            client,
            user_agent,
            origins: Arc::default(),
        }
    }

    /// Whether `url` may be fetched.
    pub async fn allowed(&self, url: &Url) -> bool {
        let origin = url.origin().ascii_serialization();
        let rules = {
            let cached = self.origins.lock().await.get(&origin).cloned();
            match cached {
                Some(rules) => rules,
                None => {
                    let rules = Arc::new(self.load(&origin).await);
                    self.origins.lock().await.insert(origin, rules.clone());
                    rules
                }
            }
        };
        match rules.as_ref() {
            Rules::AllowAll => true,
            Rules::Parsed(robot) => robot.allowed(url.as_str()),
        }
    }

    async fn load(&self, origin: &str) -> Rules {
        let Ok(response) = self.client.get(format!("{origin}/robots.txt")).send().await else {
            return Rules::AllowAll;
        };
        if !response.status().is_success() {
            return Rules::AllowAll;
        }
        let Ok(body) = response.bytes().await else {
            return Rules::AllowAll;
        };
        let body = &body[..body.len().min(MAX_ROBOTS_BYTES)];
        let agent = self.user_agent.split('/').next().unwrap_or("scrape-agent");
        Robot::new(agent, body).map_or(Rules::AllowAll, |robot| Rules::Parsed(Box::new(robot)))
    }
}
