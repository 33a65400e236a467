//! Events for the `tracing` feature: graphs built and captured, instantiations, whole-graph
//! updates refused and the re-instantiations that replace them, broken captures.
//!
//! Every event has the target `cudagraph`, so a subscriber can pick them out
//! (`RUST_LOG=cudagraph=debug` with `tracing-subscriber`'s `EnvFilter`). Levels:
//!
//! | event | level | fields |
//! | --- | --- | --- |
//! | `graph built` (a `cuda_graph!` build or rebuild) | debug | `graph` (its name), `nodes` |
//! | `graph captured` ([`Graph::capture`](crate::Graph::capture) and kin) | debug | `nodes` |
//! | `graph instantiated` | debug | `nodes`, `flags` |
//! | `whole-graph update refused` | info | `node`, `reason` |
//! | `executable re-instantiated` (the fallback of a refused update) | info | `nodes` |
//! | `stream capture broken` | warn | `call`, `code` |
//!
//! `nodes` counts the conditional bodies' nodes too. Without the feature, [`event!`] expands to nothing: its arguments are not even evaluated.

/// One event with target `cudagraph`, as `tracing`'s level macros take it:
/// `event!(debug, nodes = n, "graph captured")`. Nothing without the `tracing` feature.
macro_rules! event {
    ($level:ident, $($arg:tt)+) => {
        #[cfg(feature = "tracing")]
        {
            ::tracing::$level!(target: "cudagraph", $($arg)+);
        }
    };
}
pub(crate) use event;

/// Reports that a `cuda_graph!` declaration's graph `name` was built (or rebuilt) as `graph`:
/// called by the generated `build` and `rebuild`; nothing without the `tracing` feature.
#[inline]
pub fn built(graph: &crate::Graph<'_>, name: &'static str) {
    event!(
        debug,
        graph = name,
        nodes = graph.all_records().count(),
        "graph built"
    );
    let _ = (graph, name);
}

#[cfg(all(test, feature = "tracing"))]
mod tests {
    use std::sync::{Arc, Mutex};

    use tracing::field::{Field, Visit};
    use tracing::span::{Attributes, Id, Record};
    use tracing::{Event, Level, Metadata, Subscriber};

    /// One event: its level, target, and `field=value` pairs (the message as `message`).
    type Seen1 = (Level, String, Vec<String>);

    /// The events seen.
    #[derive(Clone, Default)]
    struct Seen(Arc<Mutex<Vec<Seen1>>>);

    struct Fields(Vec<String>);

    impl Visit for Fields {
        fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
            self.0.push(format!("{}={value:?}", field.name()));
        }
    }

    impl Subscriber for Seen {
        fn enabled(&self, _: &Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, _: &Attributes<'_>) -> Id {
            Id::from_u64(1)
        }
        fn record(&self, _: &Id, _: &Record<'_>) {}
        fn record_follows_from(&self, _: &Id, _: &Id) {}
        fn event(&self, event: &Event<'_>) {
            let mut fields = Fields(Vec::new());
            event.record(&mut fields);
            let meta = event.metadata();
            self.0
                .lock()
                .unwrap()
                .push((*meta.level(), meta.target().to_owned(), fields.0));
        }
        fn enter(&self, _: &Id) {}
        fn exit(&self, _: &Id) {}
    }

    #[test]
    fn events_have_target_cudagraph_their_level_and_fields() {
        let seen = Seen::default();
        tracing::subscriber::with_default(seen.clone(), || {
            let call = String::from("cuStreamSynchronize");
            let code = cudarc::driver::sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
            event!(warn, call = %call, code = ?code, "stream capture broken");
            event!(debug, nodes = 3usize, "graph captured");
        });
        let seen = seen.0.lock().unwrap();
        assert_eq!(seen.len(), 2);
        let (level, target, fields) = &seen[0];
        assert_eq!((*level, target.as_str()), (Level::WARN, "cudagraph"));
        assert_eq!(
            fields,
            &[
                "message=stream capture broken",
                "call=cuStreamSynchronize",
                "code=CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"
            ]
        );
        assert_eq!(seen[1].0, Level::DEBUG);
        assert_eq!(seen[1].2, ["message=graph captured", "nodes=3"]);
    }
}
