//! The connection to the client over stdio: a thread reads framed messages
//! (lsp-server's `Message::read`) into a channel; the server thread writes
//! its answers itself, so an answer already serialised (the code lenses of
//! a document, kept between requests) goes out as its bytes, without a
//! `serde_json::Value` tree built, copied and dropped on every request.

use lsp_server::{ErrorCode, Message, Request, RequestId, Response};
use serde_json::Value;
use std::io::{self, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

pub struct Transport {
    pub receiver: Receiver<Message>,
    out: Box<dyn Write + Send>,
}

impl Transport {
    /// Reads standard input on a thread (until the client's `exit` or end
    /// of input); writes to standard output.
    pub fn stdio() -> Transport {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut input = io::stdin().lock();
            while let Ok(Some(m)) = Message::read(&mut input) {
                let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                if tx.send(m).is_err() || exit {
                    break;
                }
            }
        });
        Transport::new(rx, Box::new(io::stdout()))
    }

    pub fn new(receiver: Receiver<Message>, out: Box<dyn Write + Send>) -> Transport {
        Transport { receiver, out }
    }

    pub fn send(&mut self, m: Message) -> io::Result<()> {
        m.write(&mut self.out)
    }

    /// Answers `id` with `result`, already JSON text.
    pub fn send_raw(&mut self, id: &RequestId, result: &str) -> io::Result<()> {
        let head = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":",
            serde_json::to_string(id)?
        );
        let len = head.len() + result.len() + 1;
        write!(self.out, "Content-Length: {len}\r\n\r\n{head}")?;
        self.out.write_all(result.as_bytes())?;
        self.out.write_all(b"}")?;
        self.out.flush()
    }

    /// The handshake: answers `initialize` with `capabilities`, waits for
    /// `initialized`; the client's initialize parameters. Requests before
    /// it are refused; `None` when the client leaves first.
    pub fn initialize(&mut self, capabilities: Value) -> Result<Option<Value>> {
        let params = loop {
            match self.receiver.recv() {
                Ok(Message::Request(r)) if r.method == "initialize" => {
                    let result = serde_json::json!({
                        "capabilities": capabilities,
                        "serverInfo": {"name": "pragma2cuda", "version": env!("CARGO_PKG_VERSION")},
                    });
                    self.send(ok(r.id, result))?;
                    break r.params;
                }
                Ok(Message::Request(r)) => self.send(
                    Response::new_err(
                        r.id,
                        ErrorCode::ServerNotInitialized as i32,
                        "initialize first".into(),
                    )
                    .into(),
                )?,
                Ok(Message::Notification(n)) if n.method == "exit" => return Ok(None),
                Ok(_) => {}
                Err(_) => return Ok(None),
            }
        };
        loop {
            match self.receiver.recv() {
                Ok(Message::Notification(n)) if n.method == "initialized" => {
                    return Ok(Some(params))
                }
                Ok(Message::Notification(n)) if n.method == "exit" => return Ok(None),
                Ok(_) => {}
                Err(_) => return Ok(None),
            }
        }
    }

    /// If `r` is `shutdown`: answers it, waits (30 s at most) for `exit`, true.
    pub fn shutdown(&mut self, r: &Request) -> Result<bool> {
        if r.method != "shutdown" {
            return Ok(false);
        }
        self.send(ok(r.id.clone(), Value::Null))?;
        loop {
            match self.receiver.recv_timeout(Duration::from_secs(30)) {
                Ok(Message::Notification(n)) if n.method == "exit" => return Ok(true),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err("no exit after shutdown".into()),
                Err(RecvTimeoutError::Disconnected) => return Ok(true),
            }
        }
    }
}

/// A success answer holding `result` as it is (`Response::new_ok` would
/// serialise the value into a copy).
pub fn ok(id: RequestId, result: Value) -> Message {
    Response {
        id,
        result: Some(result),
        error: None,
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);
    impl Write for Sink {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn raw_answers_are_framed_messages() {
        let sink = Sink::default();
        let (_tx, rx) = mpsc::channel();
        let mut t = Transport::new(rx, Box::new(sink.clone()));
        t.send_raw(&RequestId::from(7), "[{\"a\":1}]").unwrap();
        t.send_raw(&RequestId::from("x".to_string()), "\"s\"")
            .unwrap();
        let bytes = sink.0.lock().unwrap().clone();
        let mut r = io::BufReader::new(&bytes[..]);
        let Some(Message::Response(a)) = Message::read(&mut r).unwrap() else {
            panic!("a response")
        };
        assert_eq!(a.id, RequestId::from(7));
        assert_eq!(a.result, Some(serde_json::json!([{"a": 1}])));
        let Some(Message::Response(b)) = Message::read(&mut r).unwrap() else {
            panic!("a response")
        };
        assert_eq!(b.id, RequestId::from("x".to_string()));
        assert_eq!(b.result, Some(serde_json::json!("s")));
    }
}
