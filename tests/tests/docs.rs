//! The repository's documents say what the code does: the README shows the quickstart example's
//! own declaration and code, the pictures in `examples/pictures/` are the ones the macro draws
//! today, the two commands the README gives are ones CI runs, and every relative link of the
//! Markdown files leads to a file that exists (and, with a `#section`, to a heading of it).
//! None of these tests needs a GPU.
//!
//! After an intended change to a drawn graph, write the new pictures with
//! `CUDAGRAPH_PICTURES=overwrite cargo test -p cudagraph-tests --test gpu picture` and look at
//! them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use cudagraph_examples::quickstart::Quickstart;

/// The workspace's root folder.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate is inside the workspace")
        .to_path_buf()
}

/// A file of the workspace, by its path from the root.
fn read(relative: &str) -> String {
    let path = root().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Checks that the committed picture at `relative` (from the workspace root) is `svg`, or writes
/// it there under `CUDAGRAPH_PICTURES=overwrite`.
pub(crate) fn check_picture(relative: &str, svg: &str) {
    if std::env::var("CUDAGRAPH_PICTURES").is_ok_and(|v| v == "overwrite") {
        std::fs::write(root().join(relative), svg).expect("writing the picture");
        return;
    }
    assert!(
        read(relative).trim_end() == svg,
        "{relative} is stale: write it again with \
         `CUDAGRAPH_PICTURES=overwrite cargo test -p cudagraph-tests --test gpu picture`"
    );
}

/// The README's picture of the quickstart graph is the one the macro draws of it today.
#[test]
fn the_quickstart_picture_is_up_to_date() {
    check_picture(
        "examples/pictures/quickstart.svg",
        Quickstart::topology_svg(),
    );
}

/// The lines of `text` from the first one starting with `first` to the first one after it that
/// is `last` exactly, both included.
fn span<'t>(text: &'t str, first: &str, last: &str) -> Vec<&'t str> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim_start().starts_with(first))
        .unwrap_or_else(|| panic!("no line starting with {first:?}"));
    let end = lines[start..]
        .iter()
        .position(|l| l.trim() == last)
        .unwrap_or_else(|| panic!("no line {last:?} after {first:?}"));
    lines[start..=start + end].to_vec()
}

/// Whether `lines` occur in `text` one after the other, as written (indentation included).
fn contains_lines(text: &str, lines: &[&str]) -> bool {
    text.contains(&lines.join("\n"))
}

/// The README's example is the quickstart example: the same declaration and kernel
/// (`examples/src/quickstart.rs`) and the same code from loading the kernel to instantiating the
/// graph (`examples/examples/quickstart.rs`); and the runtime crate's README (the crates.io
/// page) shows the same example.
#[test]
fn the_readme_shows_the_quickstart_example() {
    let readme = read("README.md");
    let example = span(&readme, "```rust,no_run", "```");
    assert!(
        example.iter().any(|l| l.contains("graph Quickstart")),
        "the README's first `rust,no_run` block is not the quickstart example"
    );
    assert!(
        contains_lines(&read("cudagraph-runtime/README.md"), &example),
        "cudagraph-runtime/README.md does not show the README's example as it is"
    );
    let declarations = read("examples/src/quickstart.rs");
    let program = read("examples/examples/quickstart.rs");
    for (what, first, last, file, text) in [
        (
            "declaration",
            "cuda_graph! {",
            "}",
            "examples/src/quickstart.rs",
            &declarations,
        ),
        (
            "kernel",
            "extern \"C\" __global__ void affine",
            "}\"#;",
            "examples/src/quickstart.rs",
            &declarations,
        ),
        (
            "code",
            "let func = module.load_function",
            "let mut exec = Quickstart::build(&ctx, &params)?.instantiate()?;",
            "examples/examples/quickstart.rs",
            &program,
        ),
    ] {
        let shown = span(&readme, first, last);
        assert!(
            contains_lines(text, &shown),
            "the README's quickstart {what} is not the one of {file}:\n{}",
            shown.join("\n")
        );
    }
}

/// The commands of the README's "two commands" block (each line's `cargo ...`, without its
/// comment) are run as written by `.ci/run`.
#[test]
fn ci_runs_the_readme_commands() {
    let readme = read("README.md");
    let block = span(&readme, "```sh", "```");
    let commands: Vec<&str> = block
        .iter()
        .filter_map(|l| {
            let command = l.split('#').next().unwrap_or("").trim();
            command.starts_with("cargo ").then_some(command)
        })
        .collect();
    assert_eq!(commands.len(), 2, "expected two commands in {block:?}");
    let ci = read(".ci/run");
    for command in commands {
        assert!(
            ci.lines().any(|l| l.contains(command)),
            ".ci/run does not run the README's `{command}`"
        );
    }
}

/// Every Markdown file of the workspace: the README, `docs/` and the other folders' READMEs
/// (build output and hidden folders left out).
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder") {
            let path = entry.expect("a readable folder entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" {
                    walk(&path, out);
                }
            } else if name.ends_with(".md") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), &mut out);
    out.sort();
    out
}

/// The lines of a Markdown text that are not inside a fenced code block: where links and
/// headings can be.
fn outside_fences(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
        } else if !fenced {
            out.push(line);
        }
    }
    out
}

/// `line` with its inline code spans (between two backticks, not Markdown) left out.
fn without_code(line: &str) -> String {
    line.split('`').step_by(2).collect()
}

/// The targets of the links and images of a Markdown text: `[text](target)`,
/// `![alt](target "title")` and reference definitions `[name]: target`.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in outside_fences(text) {
        let line = without_code(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            if let Some(target) = rest[..end].split_whitespace().next() {
                out.push(target.to_owned());
            }
        }
        let trimmed = line.trim_start();
        if let (true, Some(at)) = (trimmed.starts_with('['), trimmed.find("]: ")) {
            if let Some(target) = trimmed[at + 3..].split_whitespace().next() {
                out.push(target.to_owned());
            }
        }
    }
    out
}

/// The anchors GitHub gives the headings of a Markdown text: lower case, punctuation other than
/// `-` and `_` dropped, spaces made `-`.
fn anchors(text: &str) -> BTreeSet<String> {
    outside_fences(text)
        .into_iter()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|h| {
            h.trim_start_matches('#')
                .trim()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                .map(|c| if c == ' ' { '-' } else { c })
                .flat_map(char::to_lowercase)
                .collect()
        })
        .collect()
}

/// Every relative link of the Markdown files leads to a file or folder of the repository, and a
/// `#section` of a Markdown file to one of its headings.
#[test]
fn relative_links_resolve() {
    let files = markdown_files();
    assert!(files.len() > 5, "too few Markdown files found: {files:?}");
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a readable Markdown file");
        let dir = file.parent().expect("a file has a folder");
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() {
                file.clone()
            } else {
                dir.join(path)
            };
            let shown = file.strip_prefix(root()).unwrap_or(file).display();
            if !linked.exists() {
                broken.push(format!("{shown}: {target}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor.filter(|_| linked.extension().is_some_and(|e| e == "md")) {
                let headings = anchors(&std::fs::read_to_string(&linked).expect("readable"));
                if !headings.contains(anchor) {
                    broken.push(format!("{shown}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The link checker finds links, images, references and anchors, and skips code.
#[test]
fn the_link_checker_reads_markdown() {
    let text = "# What it costs\n\
                See [the rules](docs/rules.md#kernel-arguments) and ![a picture](p.svg \"title\").\n\
                `[not](a-link.md)` in code\n\
                ```rust\nlet x = a[0](y);\n```\n\
                [ref]: ../README.md\n\
                ## `set_params`, one node\n";
    assert_eq!(
        link_targets(text),
        ["docs/rules.md#kernel-arguments", "p.svg", "../README.md"]
    );
    let found = anchors(text);
    assert!(found.contains("what-it-costs"), "{found:?}");
    assert!(found.contains("set_params-one-node"), "{found:?}");
}
