#!/usr/bin/env python3
"""`dopol view` on a big input: the page's size against `effective -o json --compact`, and the
time headless Chromium takes to open it and show one path's stack.

    GEN_CORPUS=/path/to/gen_corpus.py scripts/view-bench.py [ROUTES]      # default 36000 (49 MB)

Writes the corpus (`GEN_CORPUS OUT ROUTES`) under $BENCH_DIR (default /tmp/dopol-view-bench)
unless it is there, uses target/release/dopol (build it first), and drives `chromium` over the
DevTools protocol on a pipe (OPENS times, default 3, each in a fresh browser) (`--remote-debugging-pipe`, as tests/it/common/browser.rs does). The
page records `document.body.dataset.readyMs` (performance.now() when it has parsed its data,
drawn the graph and opened the path of the URL's `#path=`); the wall time from navigation to
`ready` is printed beside it. A benchmark, not a test: numbers vary with the machine.
"""
import json, os, subprocess, sys, tempfile, time

ROUTES = sys.argv[1] if len(sys.argv) > 1 else "36000"
WORK = os.environ.get("BENCH_DIR", "/tmp/dopol-view-bench")
DOPOL = os.environ.get("DOPOL", "target/release/dopol")
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
os.makedirs(WORK, exist_ok=True)
corpus = os.path.join(WORK, f"corpus-{ROUTES}.yaml")
if not os.path.exists(corpus):
    gen = os.environ.get("GEN_CORPUS")
    if not gen:
        sys.exit("set GEN_CORPUS to gen_corpus.py (the corpus generator), or put the corpus at " + corpus)
    subprocess.run(["python3", gen, corpus, ROUTES], check=True)
if not os.access(DOPOL, os.X_OK):
    sys.exit(f"{DOPOL} is missing: cargo build --release")


def timed(args, out):
    start = time.monotonic()
    with open(out, "wb") as f:
        subprocess.run(args, stdout=f, check=True)
    return time.monotonic() - start


compact = os.path.join(WORK, "compact.json")
page = os.path.join(WORK, "view.html")
t_compact = timed([DOPOL, "effective", "-o", "json", "--compact", "-f", corpus], compact)
start = time.monotonic()
subprocess.run([DOPOL, "view", "-f", corpus, "-o", page], check=True)
t_view = time.monotonic() - start
with open(compact) as f:
    path_id = next(iter(json.load(f)["paths"]))


class Browser:
    def __init__(self):
        self.profile = tempfile.mkdtemp()
        cmd_r, self.cmd_w = os.pipe()
        self.ans_r, ans_w = os.pipe()
        os.set_inheritable(cmd_r, True)
        os.set_inheritable(ans_w, True)

        def fds():
            os.dup2(cmd_r, 3)
            os.dup2(ans_w, 4)

        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", f"--user-data-dir={self.profile}", "about:blank"],
            # Not close_fds: it would close 3 and 4 after `fds` made them.
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(ans_w)
        self.buf, self.next, self.session = b"", 0, None
        target = self.call("Target.createTarget", {"url": "about:blank"}, browser=True)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, browser=True)["sessionId"]

    def call(self, method, params, browser=False):
        self.next += 1
        msg = {"id": self.next, "method": method, "params": params}
        if not browser:
            msg["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        while True:
            while b"\0" not in self.buf:
                chunk = os.read(self.ans_r, 1 << 20)
                if not chunk:
                    sys.exit("chromium closed the pipe")
                self.buf += chunk
            text, self.buf = self.buf.split(b"\0", 1)
            answer = json.loads(text)
            if answer.get("id") == self.next:
                if "error" in answer:
                    sys.exit(f"{method}: {answer['error']}")
                return answer["result"]

    def eval(self, expression):
        return self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})["result"].get("value")


from urllib.parse import quote
url = "file://" + os.path.abspath(page) + "#path=" + quote(path_id, safe="")
opens = []
for _ in range(int(os.environ.get("OPENS", "3"))):
    # A fresh browser each time: nothing of the page is cached.
    browser = Browser()
    start = time.monotonic()
    browser.call("Page.navigate", {"url": url})
    while browser.eval("!!(document.body && document.body.dataset.ready === '1')") is not True:
        time.sleep(0.02)
    wall = time.monotonic() - start
    ready_ms = browser.eval("document.body.dataset.readyMs")
    rows = browser.eval("document.querySelectorAll('#stack tr[data-policy]').length")
    browser.proc.kill()
    opens.append((ready_ms, wall, rows))

size_compact, size_page = os.path.getsize(compact), os.path.getsize(page)
print(f"corpus            {os.path.getsize(corpus) / 1e6:.1f} MB, {ROUTES} routes")
print(f"effective --compact  {size_compact / 1e6:.1f} MB in {t_compact:.1f} s")
print(f"view              {size_page / 1e6:.1f} MB in {t_view:.1f} s ({size_page / size_compact:.2f}x the compact JSON)")
for ready_ms, wall, rows in opens:
    print(f"chromium: ready (graph drawn, {path_id} open: {rows} rows) "
          f"at {ready_ms} ms after navigation start; {wall:.2f} s wall from Page.navigate")
