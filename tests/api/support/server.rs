//! The real binary as a child process, for tests of what only a process can show (a
//! signal, a crash, its environment).

use std::time::{Duration, Instant};

/// The real binary, on a given SQLite file and port.
pub struct Server {
    /// The process.
    pub child: std::process::Child,
    /// Base URL.
    pub base: String,
}

impl Server {
    /// Starts the binary on `db_url` with the test environment (private networks allowed).
    pub async fn start(db_url: &str) -> Self {
        Self::start_with(db_url, &[]).await
    }

    /// Starts it with extra environment variables.
    pub async fn start_with(db_url: &str, env: &[(&str, &str)]) -> Self {
        Self::start_logging(db_url, env, None).await
    }

    /// Starts it with extra environment variables, its log (stdout and stderr) written to
    /// `log` when given.
    pub async fn start_logging(
        db_url: &str,
        env: &[(&str, &str)],
        log: Option<&std::path::Path>,
    ) -> Self {
        Self::spawn(db_url, env, log, None).await
    }

    /// Starts it under an open-file limit of `files` (soft and hard, so the server cannot raise
    /// it), through util-linux's `prlimit`.
    pub async fn start_limited(db_url: &str, files: u64, log: Option<&std::path::Path>) -> Self {
        Self::spawn(db_url, &[], log, Some(files)).await
    }

    async fn spawn(
        db_url: &str,
        env: &[(&str, &str)],
        log: Option<&std::path::Path>,
        file_limit: Option<u64>,
    ) -> Self {
        // Ask the OS for a free port, then hand it to the server.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let binary = env!("CARGO_BIN_EXE_scrape-agent");
        let mut command = match file_limit {
            Some(files) => {
                let mut command = std::process::Command::new("prlimit");
                command.arg(format!("--nofile={files}:{files}")).arg(binary);
                command
            }
            None => std::process::Command::new(binary),
        };
        let child = command
            .args(["--bind", &format!("127.0.0.1:{port}")])
            .env("SCRAPE_AGENT__DATABASE__URL", db_url)
            .env("SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS", "true")
            .env("SCRAPE_AGENT__FETCH__TIMEOUT_SECS", "40")
            .env("SCRAPE_AGENT__FETCH__RETRIES", "0")
            .env("RUST_LOG", "warn")
            .envs(env.iter().copied())
            .stdout(log.map_or_else(std::process::Stdio::null, |path| {
                std::fs::File::create(path).expect("log file").into()
            }))
            .stderr(log.map_or_else(std::process::Stdio::inherit, |path| {
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(path)
                    .expect("log file")
                    .into()
            }))
            .spawn()
            .expect("the binary starts");
        let base = format!("http://127.0.0.1:{port}");
        let client = reqwest::Client::new();
        let deadline = Instant::now() + Duration::from_secs(20);
        while client.get(format!("{base}/healthz")).send().await.is_err() {
            assert!(Instant::now() < deadline, "the server answers in time");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Self { child, base }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
