//! Running one test of the current test program again in a child process: for what ends the
//! process it runs in (a crash in the driver, the library's abort), which a test can only watch
//! from outside.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The environment variable that tells the child it is the child (see [`is_child`]).
const CHILD: &str = "CUDAGRAPH_TEST_CHILD";

/// Whether this process is the child [`run_alone`] started for `test`.
pub fn is_child(test: &str) -> bool {
    std::env::var(CHILD).is_ok_and(|t| t == test)
}

/// Runs the test at `path` (`module::name`, as the test harness names it) of this test program
/// alone in a child process in which [`is_child`] holds for its name, and returns what the child
/// said and how it ended.
pub fn run_alone(path: &str) -> Output {
    child(path)
        .output()
        .expect("running the test in a child process")
}

/// The command running the test at `path` of this program alone, as its child (see
/// [`run_alone`]).
fn child(path: &str) -> Command {
    let name = path.rsplit("::").next().unwrap_or(path);
    let mut command = Command::new(std::env::current_exe().expect("the test program's path"));
    command
        .args([path, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, name);
    command
}

/// [`run_alone`], ending the child when it runs longer than `limit` (for a child that may hang):
/// what it said, how it ended, and whether it was ended for running too long.
pub fn run_alone_within(path: &str, limit: Duration) -> (Output, bool) {
    let name = path.rsplit("::").next().unwrap_or(path);
    // Files, not pipes: a pipe the parent does not read while it waits could fill and stop the
    // child.
    let dir = std::env::temp_dir();
    let file = |what: &str| dir.join(format!("cudagraph-{name}-{}.{what}", std::process::id()));
    let (out_path, err_path) = (file("out"), file("err"));
    let out = std::fs::File::create(&out_path).expect("the child's stdout file");
    let err = std::fs::File::create(&err_path).expect("the child's stderr file");
    let mut child = child(path)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .expect("starting the test in a child process");
    let started = Instant::now();
    let mut killed = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the child") {
            break status;
        }
        if !killed && started.elapsed() > limit {
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let read = |path: &std::path::Path| {
        let bytes = std::fs::read(path).unwrap_or_default();
        let _ = std::fs::remove_file(path);
        bytes
    };
    let output = Output {
        status,
        stdout: read(&out_path),
        stderr: read(&err_path),
    };
    (output, killed)
}

/// Whether the child ended by `abort` (SIGABRT on Unix; a failure elsewhere).
pub fn aborted(output: &Output) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        output.status.signal() == Some(6)
    }
    #[cfg(not(unix))]
    {
        !output.status.success()
    }
}
