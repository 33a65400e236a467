//! Running one test of the current test program again in a child process: for what ends the
//! process it runs in (a crash in the driver, the library's abort), which a test can only watch
//! from outside.

use std::process::{Command, Output};

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
    let name = path.rsplit("::").next().unwrap_or(path);
    Command::new(std::env::current_exe().expect("the test program's path"))
        .args([path, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, name)
        .output()
        .expect("running the test in a child process")
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
