//! Native benchmark of the index: build time, batch query throughput, memory, self-join
//! time and recall against the dev corpus's brute-force truth.
//!
//! ```text
//! SIMHASH_DEVCORPUS=/path/to/devcorpus cargo bench --bench index [-- --quick]
//! ```
//!
//! Data (under `$SIMHASH_DEVCORPUS`, else `target/devcorpus` in the repository root):
//! `fp/set_{100k,1m}.u64`, `fp/queries_{100k,1m}.u64` (raw little-endian u64) and
//! `fp/truth_{100k,1m}.tsv` (`query_index<TAB>set_index:distance,...`). Ids = set index.
//! `--quick` runs N = 100k only, with fewer queries. The last line is
//! `RESULT n=... qps=... build_s=... bytes_per_fp=... selfjoin_s=... recall=...` for the
//! default k = 3 layout at the largest N run.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

use simhash_wasm::index::{Index, Layout};

mod common;
use common::{corpus_dir, cpu_seconds};

fn read_u64s(path: &PathBuf) -> Vec<u64> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()
}

/// Per query, the set of (set index, distance).
fn read_truth(path: &PathBuf, queries: usize) -> Vec<HashSet<(u64, u32)>> {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut truth = vec![HashSet::new(); queries];
    for line in text.lines() {
        let (q, rest) = line.split_once('\t').expect("truth line without a tab");
        let q: usize = q.parse().expect("query index");
        for item in rest.split(',').filter(|s| !s.is_empty()) {
            let (i, d) = item.split_once(':').expect("set_index:distance");
            truth[q].insert((i.parse().unwrap(), d.parse().unwrap()));
        }
    }
    truth
}

struct Row {
    name: String,
    n: usize,
    build_s: f64,
    qps: f64,
    cpu_qps: f64,
    bytes_per_fp: f64,
    selfjoin_s: f64,
    pairs: usize,
    recall: f64,
    exact: bool,
}

fn run(
    name: &str,
    layout: Layout,
    set: &[u64],
    queries: &[u64],
    truth: &[HashSet<(u64, u32)>],
    min_secs: f64,
) -> Row {
    let t = Instant::now();
    let index: Index = Index::build(layout, set.iter().enumerate().map(|(i, &fp)| (i as u64, fp))).unwrap();
    let build_s = t.elapsed().as_secs_f64();
    if std::env::var_os("BENCH_DEBUG").is_some() {
        let mut tot = vec![0usize; 64];
        for &q in queries {
            for (i, c) in index.debug_candidates(q).into_iter().enumerate() {
                tot[i] += c;
            }
        }
        eprintln!(
            "{name}: candidates per table {:?}",
            tot.iter().map(|&t| t as f64 / queries.len() as f64).filter(|&x| x > 0.0).collect::<Vec<_>>()
        );
    }

    // batch query, repeated until min_secs have passed
    let t = Instant::now();
    let cpu0 = cpu_seconds();
    let mut reps = 0;
    let mut results;
    loop {
        results = index.query_batch(queries);
        reps += 1;
        if t.elapsed().as_secs_f64() >= min_secs {
            break;
        }
    }
    let qps = (reps * queries.len()) as f64 / t.elapsed().as_secs_f64();
    let cpu_qps = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => (reps * queries.len()) as f64 / (b - a),
        _ => f64::NAN,
    };

    let (mut found, mut total, mut exact) = (0usize, 0usize, true);
    for (r, want) in results.iter().zip(truth) {
        let got: HashSet<(u64, u32)> = r.iter().map(|m| (m.id, m.distance)).collect();
        total += want.len();
        found += want.intersection(&got).count();
        exact &= got == *want && got.len() == r.len();
    }
    let recall = if total == 0 { 1.0 } else { found as f64 / total as f64 };

    let t = Instant::now();
    let pairs = index.self_join().len();
    let selfjoin_s = t.elapsed().as_secs_f64();
    Row {
        name: name.to_string(),
        n: set.len(),
        build_s,
        qps,
        cpu_qps,
        bytes_per_fp: index.stats().bytes_per_fp,
        selfjoin_s,
        pairs,
        recall,
        exact,
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let dir = corpus_dir().join("fp");
    let sizes: &[&str] = if quick { &["100k"] } else { &["100k", "1m"] };
    println!(
        "{:<34} {:>9} {:>8} {:>12} {:>12} {:>9} {:>11} {:>8} {:>7} {:>6}",
        "strategy/layout",
        "N",
        "build s",
        "batch q/s",
        "q/CPU-s",
        "bytes/fp",
        "self-join s",
        "pairs",
        "recall",
        "exact"
    );
    let mut last_default = None;
    for size in sizes {
        let set = read_u64s(&dir.join(format!("set_{size}.u64")));
        let mut queries = read_u64s(&dir.join(format!("queries_{size}.u64")));
        let mut truth = read_truth(&dir.join(format!("truth_{size}.tsv")), queries.len());
        if quick {
            queries.truncate(2000);
            truth.truncate(2000);
        }
        let mut configs: Vec<(String, Layout, usize)> = vec![
            ("tables 4x16 k=3 (default)".into(), Layout::default_for_k(3).unwrap(), queries.len()),
            (
                "tables 16,12,12,12,12 k=3".into(),
                Layout::new(3, &[16, 12, 12, 12, 12]).unwrap(),
                queries.len(),
            ),
        ];
        if std::env::var_os("BENCH_LAYOUTS").is_some() {
            for blocks in [5u32, 6] {
                let l = Layout::even(3, blocks).unwrap();
                configs.push((format!("tables {l}"), l, queries.len()));
            }
        }
        // probing: 43,745 lookups a query, so fewer queries (all at 100k, 1000 at 1M)
        let probe_q = if *size == "100k" { queries.len().min(2000) } else { 500 };
        configs.push(("probe k=3".into(), Layout::probe(3).unwrap(), probe_q));
        for (name, layout, nq) in configs {
            if let Ok(only) = std::env::var("BENCH_ONLY") {
                if !name.contains(&only) {
                    continue;
                }
            }
            let row =
                run(&name, layout, &set, &queries[..nq], &truth[..nq], if nq < 1000 { 0.0 } else { 1.0 });
            println!(
                "{:<34} {:>9} {:>8.3} {:>12.0} {:>12.0} {:>9.1} {:>11.3} {:>8} {:>7.4} {:>6}",
                row.name,
                row.n,
                row.build_s,
                row.qps,
                row.cpu_qps,
                row.bytes_per_fp,
                row.selfjoin_s,
                row.pairs,
                row.recall,
                row.exact
            );
            if name.contains("default") {
                last_default = Some(row);
                // online: the crawler's query_and_insert, one entry at a time
                let mut index: Index = Index::new(Layout::default_for_k(3).unwrap());
                let t = Instant::now();
                let mut dups = 0usize;
                for (i, &fp) in set.iter().enumerate() {
                    dups += usize::from(!index.query_and_insert(i as u64, fp).unwrap().is_empty());
                }
                let secs = t.elapsed().as_secs_f64();
                let st = index.stats();
                println!(
                    "  online query_and_insert x{}: {:.3} s ({:.0}/s), {} segments, {:.1} bytes/fp, {} found a near-duplicate",
                    set.len(), secs, set.len() as f64 / secs, st.segments, st.bytes_per_fp, dups
                );
            }
        }
    }
    if let Some(r) = last_default {
        println!(
            "RESULT n={} qps={:.0} build_s={:.3} bytes_per_fp={:.1} selfjoin_s={:.3} recall={:.4}",
            r.n, r.qps, r.build_s, r.bytes_per_fp, r.selfjoin_s, r.recall
        );
    }
}
