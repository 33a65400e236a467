//! Pinning each rank's thread to a CPU of its own, as multi-GPU jobs bind their ranks.

/// A CPU for each of `n` rank threads: the second, third, ... of the CPUs this process may run
/// on (the first stays with the main thread). `None` (with a line saying why) when there are not
/// enough of them.
pub(super) fn rank_cpus(n: usize) -> Option<Vec<usize>> {
    // SAFETY: all-zero is an empty CPU set; the size passed is the set's.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: pid 0 is this thread; `set` is a live `cpu_set_t` of the size given.
    let got = unsafe { libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set) };
    if got != 0 {
        println!(
            "not pinning: sched_getaffinity: {}",
            std::io::Error::last_os_error()
        );
        return None;
    }
    let allowed: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
        // SAFETY: `set` is initialised; `cpu` is below `CPU_SETSIZE`.
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
        .collect();
    if allowed.len() < n + 1 {
        println!("not pinning: {} CPUs allowed for {n} ranks", allowed.len());
        return None;
    }
    Some(allowed[1..=n].to_vec())
}

/// Pins the calling thread to `cpu`.
pub(super) fn pin_to(cpu: usize) -> std::io::Result<()> {
    // SAFETY: all-zero is an empty CPU set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `cpu` comes from `rank_cpus`, below `CPU_SETSIZE`; `set` is live.
    unsafe { libc::CPU_SET(cpu, &mut set) };
    // SAFETY: pid 0 is the calling thread; `set` is a live `cpu_set_t` of the size given.
    match unsafe { libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set) } {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
}
