//! The device's graph memory: what graph allocations use and what CUDA keeps reserved for them.
//!
//! CUDA backs graph allocations from a per-device pool of physical memory that it keeps between
//! launches ([`cuDeviceGetGraphMemAttribute`]): *used* is memory backing live allocations,
//! *reserved* is what the pool holds (used or ready for reuse). Allocations whose lifetimes in
//! graph order do not overlap share physical memory, so reserved memory stays well below the
//! sum of the allocations' sizes. [`GraphMemory::trim`] returns unused reserved memory to the
//! system.
//!
//! [`cuDeviceGetGraphMemAttribute`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html

use std::fmt;

use cudarc::driver::{sys, CudaContext};

use crate::driver::result;
use crate::error::Result;

/// A snapshot of a device's graph memory, in bytes. `Display` prints a summary table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphMemory {
    /// The device's name.
    pub device: String,
    /// Memory backing live graph allocations now.
    pub used: u64,
    /// The most `used` has been since the last [`GraphMemory::reset_peaks`].
    pub used_peak: u64,
    /// Memory the pool holds now, used or not.
    pub reserved: u64,
    /// The most `reserved` has been since the last [`GraphMemory::reset_peaks`].
    pub reserved_peak: u64,
}

fn get(ctx: &CudaContext, attr: sys::CUgraphMem_attribute) -> Result<u64> {
    // SAFETY: a valid device.
    unsafe { result::memory::graph_mem_attribute(ctx.cu_device(), attr) }
}

impl GraphMemory {
    /// The graph memory of `ctx`'s device now.
    pub fn of(ctx: &CudaContext) -> Result<Self> {
        crate::ambient::refuse_in_host_node("GraphMemory::of")?;
        use sys::CUgraphMem_attribute as A;
        Ok(Self {
            device: ctx
                .name()
                .unwrap_or_else(|_| format!("device {}", ctx.ordinal())),
            used: get(ctx, A::CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT)?,
            used_peak: get(ctx, A::CU_GRAPH_MEM_ATTR_USED_MEM_HIGH)?,
            reserved: get(ctx, A::CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT)?,
            reserved_peak: get(ctx, A::CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH)?,
        })
    }

    /// Resets both peaks of `ctx`'s device to the current values.
    pub fn reset_peaks(ctx: &CudaContext) -> Result<()> {
        crate::ambient::refuse_in_host_node("GraphMemory::reset_peaks")?;
        use sys::CUgraphMem_attribute as A;
        for attr in [
            A::CU_GRAPH_MEM_ATTR_USED_MEM_HIGH,
            A::CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH,
        ] {
            // SAFETY: a valid device; resetting a high-water mark takes the value 0.
            unsafe { result::memory::set_graph_mem_attribute(ctx.cu_device(), attr, 0) }?;
        }
        Ok(())
    }

    /// Returns reserved graph memory that no allocation uses to the system
    /// (`cuDeviceGraphMemTrim`). Memory of allocations that a launch in flight may still make or
    /// use is kept.
    pub fn trim(ctx: &CudaContext) -> Result<()> {
        crate::ambient::refuse_in_host_node("GraphMemory::trim")?;
        // SAFETY: a valid device.
        unsafe { result::memory::graph_mem_trim(ctx.cu_device()) }
    }
}

/// Bytes in the largest binary unit that keeps the number at least 1.
fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

impl fmt::Display for GraphMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "graph memory on {}", self.device)?;
        writeln!(f, "| {:<9} | {:>12} | {:>12} |", "", "current", "peak")?;
        writeln!(f, "|-----------|--------------|--------------|")?;
        writeln!(
            f,
            "| {:<9} | {:>12} | {:>12} |",
            "used",
            human(self.used),
            human(self.used_peak)
        )?;
        write!(
            f,
            "| {:<9} | {:>12} | {:>12} |",
            "reserved",
            human(self.reserved),
            human(self.reserved_peak)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(human(0), "0 B");
        assert_eq!(human(1023), "1023 B");
        assert_eq!(human(1024), "1.0 KiB");
        assert_eq!(human(64 << 20), "64.0 MiB");
        assert_eq!(human(3 << 29), "1.5 GiB");
    }

    #[test]
    fn the_summary_is_a_table_of_current_and_peak() {
        let m = GraphMemory {
            device: "test device".into(),
            used: 0,
            used_peak: 64 << 20,
            reserved: 64 << 20,
            reserved_peak: 128 << 20,
        };
        let text = m.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "graph memory on test device");
        assert!(
            lines[3].contains("used") && lines[3].contains("0 B") && lines[3].contains("64.0 MiB")
        );
        assert!(lines[4].contains("reserved") && lines[4].contains("128.0 MiB"));
    }
}
