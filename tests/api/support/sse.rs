//! A small SSE reader, as a client would parse the stream.

use std::pin::Pin;
use std::time::Duration;

use futures::{Stream, StreamExt};
use serde_json::Value;

/// One SSE frame.
#[derive(Debug, Clone)]
pub struct Frame {
    /// The `id:` line.
    pub id: Option<String>,
    /// The `event:` line.
    pub event: String,
    /// The `data:` payload, parsed.
    pub data: Value,
}

impl Frame {
    /// `data.data` of the envelope.
    pub fn payload(&self) -> &Value {
        &self.data["data"]
    }

    /// The `id:` line as the event's sequence number.
    pub fn seq(&self) -> u64 {
        self.id
            .as_deref()
            .expect("an id")
            .parse()
            .expect("a number")
    }

    /// The step's action, for `step` frames.
    pub fn action(&self) -> &str {
        self.payload()["action"].as_str().unwrap_or("")
    }
}

/// The details (`extracted_data`) of the `tool_call` steps of `tool`, in order.
pub fn tool_steps<'a>(frames: &'a [Frame], tool: &str) -> Vec<&'a Value> {
    frames
        .iter()
        .filter(|f| f.event == "step" && f.action() == "tool_call")
        .map(|f| &f.payload()["extracted_data"])
        .filter(|d| d["tool"] == tool)
        .collect()
}

/// Reads frames until the stream closes (bounded by a generous timeout so a hang fails).
pub async fn read_stream(response: reqwest::Response) -> Vec<Frame> {
    read_frames(response, usize::MAX).await
}

/// Reads at most `limit` frames, then drops the connection.
pub async fn read_frames(response: reqwest::Response, limit: usize) -> Vec<Frame> {
    let mut frames = Vec::new();
    let mut buffer = String::new();
    let mut body = response.bytes_stream();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while frames.len() < limit {
        let chunk = tokio::time::timeout_at(deadline, body.next())
            .await
            .expect("stream ended in time");
        let Some(chunk) = chunk else { break };
        buffer.push_str(&String::from_utf8_lossy(&chunk.expect("chunk")));
        while let Some(end) = buffer.find("\n\n") {
            let raw: String = buffer.drain(..end + 2).collect();
            if let Some(frame) = parse_frame(&raw) {
                frames.push(frame);
                if frames.len() >= limit {
                    break;
                }
            }
        }
    }
    frames
}

/// Reads SSE frames one at a time from a live response, so a test can act mid-stream.
pub struct FrameReader {
    body: Pin<Box<dyn Stream<Item = reqwest::Result<axum::body::Bytes>> + Send>>,
    buffer: String,
}

impl FrameReader {
    pub fn new(response: reqwest::Response) -> Self {
        assert_eq!(response.status(), 200, "the stream starts");
        Self {
            body: Box::pin(response.bytes_stream()),
            buffer: String::new(),
        }
    }

    /// The next frame with data, or `None` when the stream ended (or was cut: its server
    /// died).
    pub async fn next(&mut self) -> Option<Frame> {
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let raw: String = self.buffer.drain(..end + 2).collect();
                if let Some(frame) = parse_frame(&raw) {
                    return Some(frame);
                }
            }
            let chunk = tokio::time::timeout(Duration::from_secs(60), self.body.next())
                .await
                .expect("a frame in time")?;
            let Ok(chunk) = chunk else {
                return None;
            };
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// Frames until (and including) the first one `stop` accepts.
    pub async fn until(&mut self, stop: impl Fn(&Frame) -> bool) -> Vec<Frame> {
        let mut frames = Vec::new();
        while let Some(frame) = self.next().await {
            let done = stop(&frame);
            frames.push(frame);
            if done {
                return frames;
            }
        }
        panic!(
            "the stream ended before the awaited frame: {:?}",
            frames.iter().map(|f| f.event.as_str()).collect::<Vec<_>>()
        );
    }

    /// Every remaining frame.
    pub async fn rest(&mut self) -> Vec<Frame> {
        let mut frames = Vec::new();
        while let Some(frame) = self.next().await {
            frames.push(frame);
        }
        frames
    }
}

fn parse_frame(raw: &str) -> Option<Frame> {
    let mut id = None;
    let mut event = String::from("message");
    let mut data = String::new();
    for line in raw.lines() {
        if line.starts_with(':') {
            continue; // keep-alive comment
        }
        let (field, value) = line
            .split_once(':')
            .map_or((line, ""), |(f, v)| (f, v.strip_prefix(' ').unwrap_or(v)));
        match field {
            "id" => id = Some(value.to_owned()),
            "event" => event = value.to_owned(),
            "data" => {
                if !data.is_empty() {
                    data.push('\n');
                }
                data.push_str(value);
            }
            _ => {}
        }
    }
    if data.is_empty() {
        return None;
    }
    Some(Frame {
        id,
        event,
        data: serde_json::from_str(&data).expect("data is JSON"),
    })
}
