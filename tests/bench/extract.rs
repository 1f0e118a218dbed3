//! The article-extraction benchmark (`../shared/extract-bench`: 181 news and blog pages
//! with their article body), scored as its own `evaluate.py` scores: per page, the
//! multiset of 4-token shingles (tokens are `\w+` runs) of the extracted text against the
//! article body's, tp/fp/fn normalised to sum 1; precision and recall averaged over the
//! pages; F1 from those averages. Natively, for tuning; `npm run quality:html` measures
//! the built npm package.
//!
//! Usage: `cargo bench --bench extract -- [--all] [--pages] [--show ID] [--json FILE]`
//!   --all        score `html_to_text` (all the text) instead of the main content
//!   --pages      print each page's P/R/F1, worst first
//!   --show ID    print one page's extracted text and its article body (ID prefix)
//!   --json FILE  write the output in evaluate.py's format (to cross-check the scorer)
//!
//! Ends with `RESULT extract_f1=… extract_p=… extract_r=… f1_even=… f1_odd=… mb_s=…`
//! (even/odd: the pages in id order, alternately; the rules were tuned looking at the even
//! ones).

use std::io::Read;
use std::time::Instant;

use simhash_wasm::html::{html_to_text, main_content};

mod extract_score;
use extract_score::{metrics, precision, recall, score};

const DIR: &str = "../shared/extract-bench";

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let all = args.iter().any(|a| a == "--all");
    let pages = args.iter().any(|a| a == "--pages");
    let show = args.iter().position(|a| a == "--show").map(|i| args[i + 1].clone());
    let json = args.iter().position(|a| a == "--json").map(|i| args[i + 1].clone());
    let truth: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{DIR}/ground-truth.json")).expect("ground truth"),
    )
    .expect("ground truth JSON");
    let truth = truth.as_object().expect("an object");
    let mut ids: Vec<&String> = truth.keys().collect();
    ids.sort();
    if let Some(prefix) = &show {
        ids.retain(|id| id.starts_with(prefix.as_str()));
    }
    let mut htmls = Vec::new();
    for id in &ids {
        let mut gz = flate2::read::GzDecoder::new(
            std::fs::File::open(format!("{DIR}/html/{id}.html.gz")).expect("page"),
        );
        let mut s = String::new();
        gz.read_to_string(&mut s).expect("UTF-8 page");
        htmls.push(s);
    }
    let bytes: usize = htmls.iter().map(String::len).sum();
    let extract = |h: &str| if all { html_to_text(h) } else { main_content(h) };
    let t0 = Instant::now();
    let outs: Vec<String> = htmls.iter().map(|h| extract(h)).collect();
    let secs = t0.elapsed().as_secs_f64();
    let mut scores = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let body = truth[*id]["articleBody"].as_str().unwrap_or("");
        scores.push(score(body, &outs[i]));
        if let Some(prefix) = &show {
            if id.starts_with(prefix.as_str()) {
                println!("=== {id} {}", truth[*id]["url"].as_str().unwrap_or(""));
                println!("--- extracted ({} chars)\n{}", outs[i].len(), outs[i]);
                println!("--- truth ({} chars)\n{body}", body.len());
                let s = scores[i];
                println!("--- P {:.3} R {:.3}", precision(s), recall(s));
            }
        }
    }
    if pages {
        let mut order: Vec<usize> = (0..ids.len()).collect();
        let f1 = |s: (f64, f64, f64)| {
            let (p, r) = (precision(s), recall(s));
            if p + r > 0.0 {
                2.0 * p * r / (p + r)
            } else {
                0.0
            }
        };
        order.sort_by(|&a, &b| f1(scores[a]).total_cmp(&f1(scores[b])));
        for i in order {
            let s = scores[i];
            println!(
                "{} {} P {:.3} R {:.3} F {:.3}  {}",
                i,
                &ids[i][..12],
                precision(s),
                recall(s),
                f1(s),
                truth[ids[i]]["url"].as_str().unwrap_or("")
            );
        }
    }
    if let Some(path) = json {
        let mut s = String::from("{");
        for (i, id) in ids.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&format!("{}: {{\"articleBody\": {}}}", json_string(id), json_string(&outs[i])));
        }
        s.push('}');
        std::fs::write(path, s).expect("write");
    }
    let (f, p, r) = metrics(&scores);
    let even: Vec<_> = scores.iter().step_by(2).copied().collect();
    let odd: Vec<_> = scores.iter().skip(1).step_by(2).copied().collect();
    println!(
        "RESULT extract_f1={f:.4} extract_p={p:.4} extract_r={r:.4} f1_even={:.4} f1_odd={:.4} mb_s={:.1}",
        metrics(&even).0,
        metrics(&odd).0,
        bytes as f64 / 1e6 / secs
    );
}
