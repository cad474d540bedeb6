//! Headless Chromium driven over the DevTools protocol (CDP) through `--remote-debugging-pipe`:
//! the browser reads commands on fd 3 and writes answers and events on fd 4, each a JSON text
//! ended by a NUL byte. No websocket and no port: only the page's own requests touch anything.
//!
//! The tests of `dopol view` open a page, wait for `document.body.dataset.ready`, read the DOM
//! with `Runtime.evaluate`, press keys with `Input.dispatchKeyEvent`, and list every request
//! the page made from the `Network` domain's events.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// The browser binary: `chromium` (Debian's package), or `$DOPOL_CHROMIUM`.
fn binary() -> String {
    std::env::var("DOPOL_CHROMIUM").unwrap_or_else(|_| "chromium".into())
}

/// A running headless Chromium with one page attached.
pub struct Browser {
    child: Child,
    to: std::fs::File,
    from: Receiver<Value>,
    next: u64,
    session: String,
    /// Every event received so far (`method`, `params`).
    pub events: Vec<Value>,
    _profile: tempfile::TempDir,
}

fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: `pipe` fills two new descriptors, owned here from now on.
    let rc = unsafe { libc::pipe(fds.as_mut_ptr()) };
    assert_eq!(rc, 0, "pipe failed");
    // SAFETY: both descriptors were just created and are not owned elsewhere.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

impl Browser {
    /// Starts Chromium; fails (never skips) when it is not installed.
    pub fn start() -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let (command_read, command_write) = pipe();
        let (answer_read, answer_write) = pipe();
        let (child_in, child_out) = (command_read.as_raw_fd(), answer_write.as_raw_fd());
        let mut command = Command::new(binary());
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--remote-debugging-pipe",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--window-size=1280,900",
                "about:blank",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (`dup2`) between fork and exec.
        unsafe {
            command.pre_exec(move || {
                if libc::dup2(child_in, 3) < 0 || libc::dup2(child_out, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().unwrap_or_else(|e| {
            panic!(
                "cannot start `{}` ({e}): the browser tests of `dopol view` need Chromium; \
                 install it with `apt-get install -y chromium` (CI's .ci/run does)",
                binary()
            )
        });
        drop((command_read, answer_write));
        let (sender, from) = channel();
        let reader = std::fs::File::from(answer_read);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(reader);
            let mut message = Vec::new();
            while reader.read_until(0, &mut message).is_ok_and(|n| n > 0) {
                message.pop();
                if let Ok(value) = serde_json::from_slice::<Value>(&message)
                    && sender.send(value).is_err()
                {
                    break;
                }
                message.clear();
            }
        });
        let mut browser = Browser {
            child,
            to: std::fs::File::from(command_write),
            from,
            next: 0,
            session: String::new(),
            events: Vec::new(),
            _profile: profile,
        };
        browser.attach();
        browser
    }

    /// Opens a page target and attaches to it with a flat session.
    fn attach(&mut self) {
        let target = self.call_browser("Target.createTarget", json!({"url": "about:blank"}));
        let id = target["targetId"].as_str().unwrap().to_string();
        let attached = self.call_browser(
            "Target.attachToTarget",
            json!({"targetId": id, "flatten": true}),
        );
        self.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in ["Page.enable", "Network.enable", "Runtime.enable"] {
            self.call(domain, json!({}));
        }
        // Recorded before any script of the page runs (CDP's script is not subject to the CSP).
        let watch = "window.__csp = []; document.addEventListener('securitypolicyviolation', \
                     function (e) { window.__csp.push(e.violatedDirective + ' ' + e.blockedURI); });";
        self.call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": watch}),
        );
    }

    fn send(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.to.write_all(&bytes).unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let answer = (self.from.recv_timeout(left))
                .unwrap_or_else(|_| panic!("Chromium did not answer {method} in 30 s"));
            if answer["id"] == json!(id) {
                assert!(answer.get("error").is_none(), "{method}: {answer}");
                return answer["result"].clone();
            }
            if answer.get("method").is_some() {
                self.events.push(answer);
            }
        }
    }

    fn call_browser(&mut self, method: &str, params: Value) -> Value {
        self.send(None, method, params)
    }

    /// Calls `method` on the page.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(Some(&session), method, params)
    }

    /// Evaluates `expression` in the page and returns its value (JSON-serializable).
    pub fn eval(&mut self, expression: &str) -> Value {
        self.evaluate(expression, false)
    }

    /// Evaluates `expression`, a promise, and returns the value it resolves to.
    pub fn eval_promise(&mut self, expression: &str) -> Value {
        self.evaluate(expression, true)
    }

    fn evaluate(&mut self, expression: &str, promise: bool) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": promise}),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// Navigates to `url` and waits until the page says it has rendered.
    pub fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url}));
        self.wait_for("document.body && document.body.dataset.ready === '1'");
    }

    /// Waits (at most 20 s) until `condition` is true in the page.
    pub fn wait_for(&mut self, condition: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.eval(&format!("!!({condition})")) != json!(true) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {condition}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Presses a key (`ArrowDown`, `Enter`, ...) in the focused element.
    pub fn press(&mut self, key: &str) {
        let (code, text) = match key {
            "ArrowDown" => (40, ""),
            "ArrowUp" => (38, ""),
            "ArrowRight" => (39, ""),
            "ArrowLeft" => (37, ""),
            "Enter" => (13, "\r"),
            "Tab" => (9, ""),
            "Home" => (36, ""),
            "End" => (35, ""),
            other => panic!("no key code for {other}"),
        };
        for kind in ["keyDown", "keyUp"] {
            let mut params = json!({"type": kind, "key": key, "code": key,
                "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code});
            if kind == "keyDown" && !text.is_empty() {
                params["text"] = json!(text);
            }
            self.call("Input.dispatchKeyEvent", params);
        }
    }

    /// The URL of every request the page made (`Network.requestWillBeSent`).
    pub fn requests(&mut self) -> Vec<String> {
        // Flush the events that arrived after the last answer.
        self.eval("1");
        (self.events.iter())
            .filter(|e| e["method"] == "Network.requestWillBeSent")
            .map(|e| {
                e["params"]["request"]["url"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
