//! The source tree's rules, checked: the layers of `src/` point one way, and the README's
//! Layout section names every module. Both read the files under `src/`, so a new module
//! has to be placed in [`LAYERS`] and described in the README before the tests pass.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// The layer order of the crate's top-level modules (a file `src/x.rs` or a folder
/// `src/x/`), lowest first. A module may name (`crate::x`) only modules of lower layers:
/// never a peer of its own layer, never one above. `lib.rs`, the root that re-exports the
/// API, is outside the order.
const LAYERS: &[&[&str]] = &[
    // Test support and generated tables: depend on nothing.
    &["test_rng", "punct_category"],
    // Leaves: the error type, and arithmetic every layer may use.
    &["error", "sort", "math", "sets", "union_find"],
    // The feature hash; HTML to text; JSON lines of documents.
    &["hash", "html", "jsonl"],
    // Text to features.
    &["normalize"],
    &["tokenize"],
    // Weights; the one scan's shingles.
    &["weight", "scan"],
    // The sketch, made from shingles.
    &["sketch"],
    // The fingerprint: SimHasher, which also hands out sketches.
    &["fingerprint"],
    // What compares fingerprints and texts.
    &["verify", "index"],
    // Stored formats of the above.
    &["snapshot"],
    // Components users build.
    &["seen"],
    &["dedup", "passage"],
    // The Redis adapter's logic, over content-seen.
    &["redis"],
    // The JS bindings.
    &["wasm"],
];

/// Every `.rs` file under `dir`, recursively, as (path relative to `src/`, text).
fn sources(dir: &Path, base: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = fs::read_dir(dir).expect("read src/").map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, base, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let rel = p.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/");
            out.push((rel, fs::read_to_string(&p).unwrap()));
        }
    }
}

/// The top-level module a file of `src/` belongs to (`None` for `lib.rs`).
fn module_of(rel: &str) -> Option<&str> {
    match rel.split_once('/') {
        Some((dir, _)) => Some(dir),
        None if rel == "lib.rs" => None,
        None => rel.strip_suffix(".rs"),
    }
}

/// The text of `src` without comments (line comments and doc comments; `/* */` blocks),
/// so that doc links do not count as dependencies.
fn code_of(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut in_block = 0usize;
    for line in src.lines() {
        let mut rest = line;
        let mut kept = String::new();
        loop {
            if in_block > 0 {
                match rest.find("*/") {
                    Some(i) => {
                        in_block -= 1;
                        rest = &rest[i + 2..];
                    }
                    None => break,
                }
            } else {
                let line_c = rest.find("//");
                let block_c = rest.find("/*");
                match (line_c, block_c) {
                    (Some(l), b) if b.is_none_or(|b| l < b) => {
                        kept.push_str(&rest[..l]);
                        break;
                    }
                    (_, Some(b)) => {
                        kept.push_str(&rest[..b]);
                        in_block += 1;
                        rest = &rest[b + 2..];
                    }
                    _ => {
                        kept.push_str(rest);
                        break;
                    }
                }
            }
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

/// The top-level modules a file's code names through `crate::` paths, with the line of
/// each: `use crate::a::b`, `crate::a::f()`, and the groups of `use crate::{a, b::c}`.
fn crate_paths(code: &str) -> Vec<(usize, String)> {
    let ident = |s: &str| -> String { s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        if code[..at].ends_with('$')
            || code[..at].chars().last().is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let line = code[..at].matches('\n').count() + 1;
        let rest = code[at + "crate::".len()..].trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => start = true,
                    c if c.is_whitespace() => {}
                    _ => {
                        if start && depth == 1 {
                            let name = ident(&group[i..]);
                            if !name.is_empty() {
                                found.push((line, name));
                            }
                        }
                        start = false;
                    }
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                found.push((line, name));
            }
        }
    }
    found
}

/// The root's re-exports, `pub use m::{a, b}` in `lib.rs`: item name → module `m`, so a
/// path through the root (`crate::hamming`) counts as the module it comes from.
fn root_items(lib: &str) -> BTreeMap<String, String> {
    let code = code_of(lib);
    let mut items = BTreeMap::new();
    for (at, _) in code.match_indices("\npub use ") {
        let rest = &code[at + "\npub use ".len()..];
        let stmt = &rest[..rest.find(';').unwrap_or(rest.len())];
        let Some((module, names)) = stmt.split_once("::") else { continue };
        for name in names.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|n| !n.is_empty()) {
            items.insert(name.to_owned(), module.trim().to_owned());
        }
    }
    items
}

/// The library part of a file: without its unit tests (`tests.rs`, `tests_*.rs`, and the
/// `#[cfg(test)] mod tests` that ends a file). Tests sit above every layer: a lower
/// module's test may check it through a higher one (the sketch through `SimHasher`).
fn library_part<'a>(rel: &str, src: &'a str) -> &'a str {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    if is_test_file(name) {
        return "";
    }
    match src.find("#[cfg(test)]\nmod tests") {
        Some(at) => &src[..at],
        None => src,
    }
}

/// Every edge of `files` that breaks [`LAYERS`], and every module missing from it.
fn violations(files: &[(String, String)]) -> Vec<String> {
    let layer: BTreeMap<&str, usize> =
        LAYERS.iter().enumerate().flat_map(|(i, mods)| mods.iter().map(move |m| (*m, i))).collect();
    let lib = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let root = root_items(&lib);
    let mut bad = Vec::new();
    for (rel, src) in files {
        let Some(from) = module_of(rel) else { continue };
        let Some(&from_layer) = layer.get(from) else {
            bad.push(format!("src/{rel}: module `{from}` is in no layer of tests/tree.rs's LAYERS"));
            continue;
        };
        for (line, to) in crate_paths(&code_of(library_part(rel, src))) {
            let to = root.get(&to).cloned().unwrap_or(to);
            if to == from {
                continue;
            }
            match layer.get(to.as_str()) {
                None => bad.push(format!("src/{rel}:{line}: names `crate::{to}`, which is in no layer")),
                Some(&to_layer) if to_layer >= from_layer => bad.push(format!(
                    "src/{rel}:{line}: `{from}` (layer {from_layer}) names `crate::{to}` (layer {to_layer}): \
                     a module may only use lower layers"
                )),
                Some(_) => {}
            }
        }
    }
    bad
}

fn src_files() -> Vec<(String, String)> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&base, &base, &mut files);
    files
}

#[test]
fn layers_point_one_way() {
    let bad = violations(&src_files());
    assert!(bad.is_empty(), "the layer rule is broken:\n{}", bad.join("\n"));
}

#[test]
fn a_back_edge_or_an_unplaced_module_is_caught() {
    let file = |rel: &str, src: &str| vec![(rel.to_owned(), src.to_owned())];
    // Each form of path is seen: `use`, a group, an inline call; comments are not code.
    for src in [
        "use crate::weight::MAX_WEIGHT;",
        "use crate::{test_rng, weight::MAX_WEIGHT};",
        "fn f() -> f64 { crate::weight::ln(2.0) }",
        "use crate::{\n    test_rng::Rng,\n    weight::{self, ln},\n};",
    ] {
        let bad = violations(&file("error.rs", src));
        assert_eq!(bad.len(), 1, "{src}: {bad:?}");
        assert!(bad[0].contains("`error` (layer 1) names `crate::weight`"), "{}", bad[0]);
    }
    // A peer is refused too (the sketch and the fingerprint's scan are separate layers,
    // weight and scan are peers).
    assert_eq!(violations(&file("scan.rs", "use crate::weight::ln;")).len(), 1);
    // Downward edges, doc links and comments are fine; a root re-export counts as its
    // module (`crate::hamming` is `hash`'s, `crate::ContentSeen` is `seen`'s).
    assert!(violations(&file(
        "fingerprint/mod.rs",
        "//! See [`crate::wasm`].\nuse crate::{Error, sketch::Sketch};\n/* crate::dedup */ use crate::hash::mix;\nfn d() -> u32 { crate::hamming(1, 2) }"
    ))
    .is_empty());
    assert_eq!(violations(&file("index/mod.rs", "use crate::ContentSeen;")).len(), 1);
    // Unit tests may use any layer; the library code before them may not.
    let tested =
        "use crate::hash::mix;\n#[cfg(test)]\nmod tests {\n    use crate::fingerprint::SimHasher;\n}";
    assert!(violations(&file("sketch/mod.rs", tested)).is_empty());
    assert!(violations(&file("sketch/tests.rs", "use crate::fingerprint::SimHasher;")).is_empty());
    assert_eq!(
        violations(&file("sketch/mod.rs", &tested.replace("hash::mix", "seen::ContentSeen"))).len(),
        1
    );
    // A module of its own, or one that is not in the order, is reported.
    assert!(violations(&file("newthing.rs", "use crate::hash::mix;"))[0].contains("in no layer"));
    assert!(violations(&file("hash.rs", "use crate::newthing::f;"))[0].contains("in no layer"));
}

#[test]
fn every_module_is_in_one_layer() {
    let mut seen = BTreeMap::new();
    for (i, mods) in LAYERS.iter().enumerate() {
        for m in *mods {
            assert!(seen.insert(*m, i).is_none(), "`{m}` is in two layers");
        }
    }
    let files = src_files();
    for m in seen.keys() {
        assert!(
            files.iter().any(|(rel, _)| module_of(rel) == Some(m)),
            "LAYERS names `{m}`, which src/ does not have"
        );
    }
}

// ---- the README's Layout section --------------------------------------------------------

/// The README's `## Layout` section, as rows: (first cell, whole row).
fn layout_rows() -> Vec<(String, String)> {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme.find("\n## Layout").expect("README has a `## Layout` section");
    let section = &readme[start + 1..];
    let end = section[3..].find("\n## ").map_or(section.len(), |e| e + 3);
    section[..end]
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("| ---"))
        .map(|l| {
            let first = l.trim_start_matches('|').split('|').next().unwrap_or("").to_owned();
            (first, l.to_owned())
        })
        .collect()
}

/// `true` for a unit-test file (`tests.rs`, `tests_*.rs`): part of its module's tests,
/// not a part the Layout describes.
fn is_test_file(name: &str) -> bool {
    name == "tests.rs" || name.starts_with("tests_")
}

/// The modules of `src/`: (name, parts) with a folder's parts (`mod`, file stems and
/// `sub/` folders; test files left out), and `None` for a file module (`x.rs`).
fn tree() -> Vec<(String, Option<Vec<String>>)> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let list = |dir: &Path| {
        let mut v: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        v.sort();
        v
    };
    let mut out = Vec::new();
    for p in list(&base) {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            let mut parts = Vec::new();
            for part in list(&p) {
                let file = part.file_name().unwrap().to_string_lossy().into_owned();
                if part.is_dir() {
                    parts.push(format!("{file}/"));
                } else if let Some(stem) = file.strip_suffix(".rs") {
                    if !is_test_file(&file) {
                        parts.push(stem.to_owned());
                    }
                }
            }
            out.push((name, Some(parts)));
        } else if name.ends_with(".rs") && name != "lib.rs" {
            out.push((name, None));
        }
    }
    out
}

/// What the Layout `rows` fail to name of `tree`: a row per folder (`x/`, or `src/wasm/`)
/// whose text names each part in backticks, and a row naming each file module (`x.rs`).
fn missing_from_layout(rows: &[(String, String)], tree: &[(String, Option<Vec<String>>)]) -> Vec<String> {
    let row_of = |needle: &str| rows.iter().find(|(first, _)| first.contains(&format!("`{needle}`")));
    let mut missing = Vec::new();
    for (name, parts) in tree {
        match parts {
            Some(parts) => {
                let key = if name == "wasm" { "src/wasm/".to_owned() } else { format!("{name}/") };
                let Some((_, row)) = row_of(&key) else {
                    missing.push(format!("no row for `{key}`"));
                    continue;
                };
                for part in parts {
                    if !row.contains(&format!("`{part}`")) {
                        missing.push(format!("the `{key}` row does not name `{part}`"));
                    }
                }
            }
            None => {
                if row_of(name).is_none() {
                    missing.push(format!("no row names `{name}`"));
                }
            }
        }
    }
    missing
}

#[test]
fn the_readme_layout_names_every_module_of_src() {
    let missing = missing_from_layout(&layout_rows(), &tree());
    assert!(missing.is_empty(), "README.md's Layout section is out of date:\n{}", missing.join("\n"));
}

#[test]
fn the_readme_check_sees_a_missing_module() {
    let row = |first: &str, rest: &str| (format!(" {first} "), format!("| {first} | {rest} |"));
    let rows = vec![row("`hash.rs`, `weight.rs`", "steps"), row("`index/`", "`mod`, `layout`")];
    let tree = |extra: Option<(&str, Option<Vec<String>>)>| {
        let mut t = vec![
            ("hash.rs".to_owned(), None),
            ("weight.rs".to_owned(), None),
            ("index".to_owned(), Some(vec!["mod".to_owned(), "layout".to_owned()])),
        ];
        if let Some((n, p)) = extra {
            t.push((n.to_owned(), p));
        }
        t
    };
    assert!(missing_from_layout(&rows, &tree(None)).is_empty());
    assert_eq!(missing_from_layout(&rows, &tree(Some(("sets.rs", None)))), ["no row names `sets.rs`"]);
    assert_eq!(missing_from_layout(&rows, &tree(Some(("scan", Some(vec![]))))), ["no row for `scan/`"]);
    let mut grown = tree(None);
    grown[2].1.as_mut().unwrap().push("join".to_owned());
    assert_eq!(missing_from_layout(&rows, &grown), ["the `index/` row does not name `join`"]);
}
