//! A small Chrome DevTools Protocol client over `--remote-debugging-pipe`: the browser reads
//! NUL-terminated JSON commands on its fd 3 and writes NUL-terminated JSON replies and events on
//! its fd 4. No DevTools port is opened on any interface.
//!
//! The crate forbids `unsafe`, so the child's fds 3 and 4 are set by `sh` (`exec … 3<&0 4>&1`):
//! our ends of its stdin and stdout pipes become the browser's command and reply pipes.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::{Mutex, mpsc, oneshot};

/// A failure of the protocol or of the browser process.
#[derive(Debug, thiserror::Error)]
pub enum CdpError {
    /// The browser could not be started.
    #[error("the browser could not be started: {0}")]
    Launch(String),
    /// The pipe closed: the browser exited or crashed.
    #[error("the browser closed its pipe (it exited or crashed)")]
    Closed,
    /// The browser answered a command with an error.
    #[error("{method} failed: {message}")]
    Command {
        /// The method called.
        method: String,
        /// The browser's message.
        message: String,
    },
    /// A reply that does not have the expected shape.
    #[error("unexpected reply to {method}: {error}")]
    Shape {
        /// The method called.
        method: String,
        /// What did not match.
        error: String,
    },
}

/// An event the browser sent for one session.
#[derive(Debug, Clone, Deserialize)]
pub struct Event {
    /// `Domain.event`.
    pub method: String,
    /// Its parameters.
    #[serde(default)]
    pub params: Value,
}

#[derive(Debug, Deserialize)]
struct Incoming {
    id: Option<u64>,
    method: Option<String>,
    #[serde(default)]
    params: Value,
    result: Option<Value>,
    error: Option<RemoteError>,
    #[serde(rename = "sessionId")]
    session_id: Option<String>,
}

#[derive(Debug, Deserialize)]
struct RemoteError {
    message: String,
}

type Pending = HashMap<u64, oneshot::Sender<Result<Value, String>>>;
type Listeners = HashMap<String, mpsc::UnboundedSender<Event>>;

#[derive(Default)]
struct Shared {
    pending: Pending,
    listeners: Listeners,
    closed: bool,
}

/// One running browser and the connection to it.
pub struct Connection {
    next_id: AtomicU64,
    outgoing: mpsc::UnboundedSender<Vec<u8>>,
    shared: Arc<Mutex<Shared>>,
    child: Mutex<Child>,
    /// The process group of the browser and its helpers (the browser's pid).
    pub pgid: u32,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("pgid", &self.pgid)
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// Starts `executable` with `args` plus `--remote-debugging-pipe`, in its own process group.
    ///
    /// # Errors
    /// The process could not be started.
    pub fn launch(executable: &str, args: &[String]) -> Result<Self, CdpError> {
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>/dev/null"#)
            .arg(executable)
            .args(args)
            .arg("--remote-debugging-pipe")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .kill_on_drop(true);
        let mut child = command
            .spawn()
            .map_err(|e| CdpError::Launch(format!("{executable}: {e}")))?;
        let pgid = child
            .id()
            .ok_or_else(|| CdpError::Launch("no process id".into()))?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(CdpError::Launch("no pipes".into()));
        };
        let (outgoing, mut to_send) = mpsc::unbounded_channel::<Vec<u8>>();
        tokio::spawn(async move {
            while let Some(mut message) = to_send.recv().await {
                message.push(0);
                if stdin.write_all(&message).await.is_err() {
                    break;
                }
            }
        });
        let shared = Arc::new(Mutex::new(Shared::default()));
        let reader_shared = shared.clone();
        tokio::spawn(async move {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(0, &mut buffer).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                if buffer.last() == Some(&0) {
                    buffer.pop();
                }
                let Ok(message) = serde_json::from_slice::<Incoming>(&buffer) else {
                    continue;
                };
                let mut shared = reader_shared.lock().await;
                if let Some(id) = message.id {
                    if let Some(reply) = shared.pending.remove(&id) {
                        let _ = reply.send(match (message.result, message.error) {
                            (_, Some(error)) => Err(error.message),
                            (result, None) => Ok(result.unwrap_or(Value::Null)),
                        });
                    }
                } else if let Some(method) = message.method {
                    let key = message.session_id.unwrap_or_default();
                    if let Some(listener) = shared.listeners.get(&key)
                        && listener
                            .send(Event {
                                method,
                                params: message.params,
                            })
                            .is_err()
                    {
                        shared.listeners.remove(&key);
                    }
                }
            }
            let mut shared = reader_shared.lock().await;
            shared.closed = true;
            shared.pending.clear();
            shared.listeners.clear();
        });
        Ok(Self {
            next_id: AtomicU64::new(1),
            outgoing,
            shared,
            child: Mutex::new(child),
            pgid,
        })
    }

    /// Sends `method` (to `session` if given) and waits for its reply.
    ///
    /// # Errors
    /// The pipe closed, or the browser answered with an error.
    pub async fn call(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, CdpError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (reply, answer) = oneshot::channel();
        {
            let mut shared = self.shared.lock().await;
            if shared.closed {
                return Err(CdpError::Closed);
            }
            shared.pending.insert(id, reply);
        }
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = Value::String(session.to_owned());
        }
        let bytes = serde_json::to_vec(&message).map_err(|e| CdpError::Shape {
            method: method.to_owned(),
            error: e.to_string(),
        })?;
        self.outgoing.send(bytes).map_err(|_| CdpError::Closed)?;
        match answer.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(message)) => Err(CdpError::Command {
                method: method.to_owned(),
                message,
            }),
            Err(_) => Err(CdpError::Closed),
        }
    }

    /// [`Self::call`], the reply read as `T`.
    ///
    /// # Errors
    /// As [`Self::call`], or a reply of another shape.
    pub async fn call_as<T: DeserializeOwned>(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<T, CdpError> {
        let value = self.call(session, method, params).await?;
        serde_json::from_value(value).map_err(|e| CdpError::Shape {
            method: method.to_owned(),
            error: e.to_string(),
        })
    }

    /// The events of `session` from now on ("" for the browser's own).
    pub async fn listen(&self, session: &str) -> mpsc::UnboundedReceiver<Event> {
        let (sender, receiver) = mpsc::unbounded_channel();
        let mut shared = self.shared.lock().await;
        if !shared.closed {
            shared.listeners.insert(session.to_owned(), sender);
        }
        receiver
    }

    /// Stops listening to `session`.
    pub async fn forget(&self, session: &str) {
        self.shared.lock().await.listeners.remove(session);
    }

    /// Whether the pipe is still open.
    pub async fn is_alive(&self) -> bool {
        !self.shared.lock().await.closed
    }

    /// Kills the browser's whole process group and reaps the browser.
    pub async fn kill(&self) {
        kill_group(self.pgid);
        let mut child = self.child.lock().await;
        let _ = child.kill().await;
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        kill_group(self.pgid);
    }
}

/// Sends SIGKILL to process group `pgid` (the browser, its zygotes and renderers).
pub fn kill_group(pgid: u32) {
    if let Ok(pid) = i32::try_from(pgid)
        && let Some(pid) = rustix::process::Pid::from_raw(pid)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}
