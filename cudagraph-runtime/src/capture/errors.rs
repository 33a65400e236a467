//! What breaks a stream capture, and the errors that say so: the driver's capture codes
//! explained with the call that failed and what to do instead, and CUDA's rule on the node kinds
//! a conditional body may hold, for captured nodes.

use cudarc::driver::{sys, CudaContext, DriverError};

use crate::driver::is_capture_code;
use crate::error::Error;
use crate::node::kind::raw_kind_name;

/// What cudarc recorded for later during a broken capture, if it is a capture error: taken out
/// of the context (it concerns the capture, and would fail the caller's next cudarc call), while
/// any other recorded error is put back.
fn take_recorded(ctx: &CudaContext) -> Option<DriverError> {
    match ctx.check_err() {
        Ok(()) => None,
        Err(e) if is_capture_code(e.0) => Some(e),
        Err(e) => {
            ctx.record_err(Err::<(), _>(e));
            None
        }
    }
}

/// A capture's failure, explained: a driver error with a capture code becomes
/// [`Error::CaptureBroken`] naming the failed call (`end` names the end of the capture when the
/// error is the end's), or the call whose error cudarc recorded for later when the failure is
/// only the invalidation that followed it. Other errors are returned as they are. `broken` says
/// whether the capture was broken (its end failed): then cudarc's recorded capture errors are
/// taken out of the context.
pub(crate) fn explain(
    error: Error,
    broken: bool,
    ctx: &CudaContext,
    end: Option<&'static str>,
) -> Error {
    let failed = match &error {
        Error::Driver { call, source } if is_capture_code(source.0) => Some((
            end.map_or_else(|| format!("{call} inside the capture"), str::to_owned),
            *source,
        )),
        Error::Node { call, node, source } if is_capture_code(source.0) => Some((
            format!("{call} on node `{node}` inside the capture"),
            *source,
        )),
        _ => None,
    };
    let recorded = if broken || failed.is_some() {
        take_recorded(ctx)
    } else {
        None
    };
    let Some((call, code)) = failed else {
        return error;
    };
    let tracking = ctx.is_managing_stream_synchronization();
    let invalidated = sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    match recorded {
        // The invalidation followed an earlier failure, which cudarc recorded: that one says
        // what broke the capture.
        Some(first) if code.0 == invalidated && first.0 != invalidated => capture_broken(
            "a cudarc call inside the capture that records its errors for later (the wait of \
             cudarc's event tracking before a buffer is used, or a drop)"
                .into(),
            first,
            tracking,
        ),
        _ => capture_broken(call, code, tracking),
    }
}

/// [`Error::CaptureBroken`] for `call` failing with `code`; `tracking` says whether cudarc's
/// event tracking is on (it explains some codes).
pub(crate) fn capture_broken(call: String, code: DriverError, tracking: bool) -> Error {
    crate::trace::event!(warn, call = %call, code = ?code.0, "stream capture broken");
    Error::CaptureBroken {
        call,
        code,
        hint: hint(code.0, tracking),
    }
}

/// What makes the driver return `code` during a capture, and what to do instead.
pub(crate) fn hint(code: sys::CUresult, tracking: bool) -> &'static str {
    use sys::CUresult::*;
    match code {
        CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED => {
            "a call that synchronizes or waits on the host is not allowed while a stream is \
             being captured (e.g. `CudaStream::synchronize`, `CudaContext::synchronize`, \
             `CudaEvent::synchronize`, a copy to or from pageable host memory such as \
             `clone_dtoh` or `memcpy_dtov`, `cuMemAlloc`, `cuMemFreeHost`); make it before or \
             after the capture, and read results after launching the graph"
        }
        CUDA_ERROR_STREAM_CAPTURE_INVALIDATED if tracking => {
            "an earlier call broke the capture and its error was not returned by the capture \
             closure (ignored, or recorded by cudarc for later). cudarc's event tracking is on: \
             a cudarc buffer used in the closure makes cudarc wait on an event recorded after \
             its last use outside the capture, which breaks it; give the buffer to the capture \
             as an operand and use its view (views carry no events). Otherwise look for a call \
             that synchronizes (`synchronize`, a blocking copy to the host)"
        }
        CUDA_ERROR_STREAM_CAPTURE_INVALIDATED => {
            "an earlier call broke the capture and its error was not returned by the capture \
             closure (ignored with `let _ =` or `.ok()`, or recorded by cudarc for later): \
             typically a call that synchronizes (`synchronize`, a blocking copy to the host), or \
             a wait on an event recorded outside the capture; return errors from the closure \
             with `?` to see which"
        }
        CUDA_ERROR_STREAM_CAPTURE_MERGE => {
            "two separate captures were joined: a stream being captured waited on an event \
             recorded in another capture"
        }
        CUDA_ERROR_STREAM_CAPTURE_UNMATCHED => "the capture was not begun on this stream",
        CUDA_ERROR_STREAM_CAPTURE_UNJOINED => {
            "a stream joined the capture (it waited on an event recorded in it: cudarc's \
             `CudaStream::fork` or `join`, `CudaStream::wait`, or cudarc's event tracking) and \
             was not joined back into the captured stream before the capture ended; fork \
             streams with `CaptureScope::fork`, which always joins them"
        }
        CUDA_ERROR_STREAM_CAPTURE_ISOLATION if tracking => {
            "the capture would depend on work outside it: a stream being captured waited on an \
             event recorded outside the capture. cudarc's event tracking is on, and does this \
             when a cudarc buffer used in the closure was last used outside the capture: give \
             the buffer to the capture as an operand and use its view (views carry no events)"
        }
        CUDA_ERROR_STREAM_CAPTURE_ISOLATION => {
            "the capture would depend on work outside it: a stream being captured waited on an \
             event recorded outside the capture (order such work before the capture begins)"
        }
        CUDA_ERROR_STREAM_CAPTURE_IMPLICIT => {
            "the legacy default stream (`CudaContext::default_stream`, stream 0) was used while \
             a blocking stream was being captured, which would make it wait on the capture; use \
             streams made by `CudaContext::new_stream` (non-blocking)"
        }
        CUDA_ERROR_CAPTURED_EVENT => {
            "an event last recorded inside the capture was queried or waited for on the host \
             (`CudaEvent::synchronize`, `is_complete`, `elapsed_ms`) or by a stream outside the \
             capture: such an event only orders captured work. cudarc records such events for \
             its buffers when event tracking is on: use the views of the capture's operands, \
             which carry no events"
        }
        CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD => {
            "a call that belongs to the capturing thread was made on another thread (captures of \
             this crate are thread-local: keep the capture's work on the capturing thread)"
        }
        _ => "see the CUDA driver API documentation of this error code",
    }
}

/// The error for a captured node of raw type `code` that a conditional body may not hold.
pub(crate) fn not_in_body(node: String, code: u32) -> Error {
    Error::Invalid {
        node,
        reason: format!(
            "the capture recorded a {} node, and CUDA allows only kernel, empty, child-graph, \
             memset, memcpy and conditional nodes in a conditional body (host functions, event \
             records and waits with external events, stream-ordered allocations and frees are \
             not): enqueue that work before or after the conditional node",
            raw_kind_name(code)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes() -> [sys::CUresult; 9] {
        use sys::CUresult::*;
        [
            CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
            CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
            CUDA_ERROR_STREAM_CAPTURE_MERGE,
            CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,
            CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
            CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
            CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
            CUDA_ERROR_CAPTURED_EVENT,
            CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,
        ]
    }

    #[test]
    fn every_capture_code_has_its_own_hint() {
        for tracking in [false, true] {
            let hints: Vec<&str> = codes().iter().map(|&c| hint(c, tracking)).collect();
            for (i, h) in hints.iter().enumerate() {
                assert!(
                    !h.starts_with("see the CUDA"),
                    "{:?} has no hint",
                    codes()[i]
                );
                assert!(
                    !hints[..i].contains(h),
                    "{:?} shares its hint with an earlier code",
                    codes()[i]
                );
            }
        }
        assert!(!is_capture_code(sys::CUresult::CUDA_ERROR_INVALID_VALUE));
        assert!(codes().iter().all(|&c| is_capture_code(c)));
    }

    #[test]
    fn a_broken_capture_names_the_call_the_code_and_what_to_do() {
        let code = DriverError(sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
        let e = capture_broken(
            "a cudarc driver call inside the capture".into(),
            code,
            false,
        );
        let text = e.to_string();
        assert!(
            text.starts_with(
                "a cudarc driver call inside the capture failed with \
                 CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED: a call that synchronizes"
            ),
            "{text}"
        );
        assert!(text.contains("CudaStream::synchronize"), "{text}");
        match e {
            Error::CaptureBroken { call, code: c, .. } => {
                assert_eq!(call, "a cudarc driver call inside the capture");
                assert_eq!(c, code);
            }
            other => panic!("expected CaptureBroken, got {other:?}"),
        }
    }

    #[test]
    fn event_tracking_is_named_where_it_explains_the_code() {
        use sys::CUresult::*;
        for code in [
            CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
            CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
        ] {
            assert!(hint(code, true).contains("operand"), "{code:?}");
        }
        assert!(hint(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, false).contains("CaptureScope::fork"));
        assert!(hint(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, false).contains("default_stream"));
    }
}
