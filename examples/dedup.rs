//! Near-duplicate clusters of a JSONL collection (`{"id": …, "text": …}` per line), with
//! the crate's defaults: fingerprints at k = 10, verified by shingle Jaccard ≥ 0.8.
//!
//! ```sh
//! cargo run --release --example dedup                 # the sample corpus, scored
//! cargo run --release --example dedup -- docs.jsonl   # your own documents
//! ```
//!
//! With no argument it reads the package's sample corpus (320 SPDX licence texts) and
//! scores the pairs it found against the corpus's ground truth
//! (`pkg-template/sample/licenses.truth.tsv`: every pair with 4-gram Jaccard ≥ 0.8). It
//! exits with status 1 when precision falls below 0.95 or recall below 0.7 (measured:
//! 1.000 and 0.748, 107 of 143 pairs; the dev corpus gives 0.91), so CI notices when a
//! change makes the main job worse.

use std::collections::HashSet;
use std::process::ExitCode;

use simhash_wasm::dedup::{dedup, DedupOptions};

const SAMPLE: &str = "pkg-template/sample/licenses.jsonl";
const TRUTH: &str = "pkg-template/sample/licenses.truth.tsv";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let arg = std::env::args().nth(1);
    let path = arg.as_deref().unwrap_or(SAMPLE);
    let docs = read_jsonl(path)?;

    let report = dedup(&docs, &DedupOptions::default())?;

    println!("{} documents, layout {}", docs.len(), report.layout);
    for (id, reason) in &report.skipped {
        println!("skipped {id}: {reason}");
    }
    for cluster in &report.clusters {
        println!("{}", cluster.join("  "));
    }
    println!("{} clusters, {} pairs", report.clusters.len(), report.pairs.len());

    if arg.is_some() {
        return Ok(ExitCode::SUCCESS);
    }
    // The sample corpus comes with its true pairs: score what was found.
    let truth: HashSet<(String, String)> = std::fs::read_to_string(TRUTH)?
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut f = l.split('\t');
            let (a, b) = (f.next()?.to_owned(), f.next()?.to_owned());
            Some(if a < b { (a, b) } else { (b, a) })
        })
        .collect();
    // Precision: the reported pairs (those joining each cluster) that are true. Recall: the
    // true pairs whose documents share a cluster.
    let found: HashSet<(String, String)> = report.pairs.iter().map(|p| (p.a.clone(), p.b.clone())).collect();
    let hits = found.intersection(&truth).count();
    let cluster_of: std::collections::HashMap<&str, usize> = report
        .clusters
        .iter()
        .enumerate()
        .flat_map(|(n, c)| c.iter().map(move |id| (id.as_str(), n)))
        .collect();
    let together = truth
        .iter()
        .filter(|(a, b)| cluster_of.get(a.as_str()).is_some_and(|n| cluster_of.get(b.as_str()) == Some(n)))
        .count();
    let precision = hits as f64 / found.len().max(1) as f64;
    let recall = together as f64 / truth.len().max(1) as f64;
    println!(
        "against the truth file: precision {precision:.3}, recall {recall:.3} ({together} of {} true pairs in one cluster)",
        truth.len()
    );
    if truth.is_empty() || precision < 0.95 || recall < 0.7 {
        eprintln!("FAIL: expected precision ≥ 0.95 and recall ≥ 0.7 on the sample corpus");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads `{"id": …, "text": …}` lines; blank lines are skipped.
fn read_jsonl(path: &str) -> Result<Vec<(String, String)>, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut docs = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{path}:{}: {e}", n + 1))?;
        let field = |k: &str| {
            v.get(k)
                .and_then(|x| x.as_str())
                .map(str::to_owned)
                .ok_or_else(|| format!("{path}:{}: no string {k:?}", n + 1))
        };
        docs.push((field("id")?, field("text")?));
    }
    Ok(docs)
}
