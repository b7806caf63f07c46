//! Log capture: the lines a test's code writes, in the functions' own format, read
//! back as text.

use std::sync::{Arc, Mutex};

/// The log lines written while a test runs: a `MakeWriter` for a test subscriber
/// (`tracing::subscriber::set_default`), read back with [`CapturedLogs::text`].
#[derive(Clone, Default)]
pub struct CapturedLogs(Arc<Mutex<Vec<u8>>>);

impl CapturedLogs {
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().expect("not poisoned").clone()).expect("UTF-8 logs")
    }
}

impl std::io::Write for CapturedLogs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for CapturedLogs {
    type Writer = CapturedLogs;
    fn make_writer(&'a self) -> CapturedLogs {
        self.clone()
    }
}

/// Every log line this process writes from now on, on any thread (a handler's
/// blocking task too), in the functions' own format. Sets the process's global
/// subscriber: call it once, in a test that owns its process (nextest runs each
/// test in one); panics when a global subscriber is already set.
pub fn capture_process_logs() -> CapturedLogs {
    let logs = CapturedLogs::default();
    tracing::subscriber::set_global_default(telemetry::subscriber(logs.clone()))
        .expect("no global log subscriber set yet");
    logs
}
