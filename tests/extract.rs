//! Main-content extraction on pages of the article-extraction benchmark
//! (`../shared/extract-bench`), scored as its evaluate.py scores: a floor that a
//! regression of the extractor breaks. The whole benchmark runs in `npm run quality:html`.
#![cfg(feature = "html")]

use std::io::Read;

use simhash_wasm::html::{html_to_text, main_content};

#[path = "bench/extract_score.rs"]
mod extract_score;
use extract_score::{metrics, score};

const DIR: &str = "../shared/extract-bench";

/// Every 12th page in id order (16 pages): (article body, HTML).
fn pages() -> Vec<(String, String)> {
    let truth: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{DIR}/ground-truth.json")).expect("ground truth"),
    )
    .expect("ground truth JSON");
    let truth = truth.as_object().expect("an object");
    let mut ids: Vec<&String> = truth.keys().collect();
    ids.sort();
    ids.iter()
        .step_by(12)
        .map(|id| {
            let file = std::fs::File::open(format!("{DIR}/html/{id}.html.gz")).expect("page");
            let mut html = String::new();
            flate2::read::GzDecoder::new(file).read_to_string(&mut html).expect("UTF-8 page");
            (truth[*id]["articleBody"].as_str().unwrap_or("").to_string(), html)
        })
        .collect()
}

#[test]
fn main_content_scores_well_on_benchmark_pages() {
    let pages = pages();
    assert_eq!(pages.len(), 16);
    let main: Vec<_> = pages.iter().map(|(body, html)| score(body, &main_content(html))).collect();
    let all: Vec<_> = pages.iter().map(|(body, html)| score(body, &html_to_text(html))).collect();
    let (f1, p, r) = metrics(&main);
    let (f1_all, p_all, _) = metrics(&all);
    eprintln!("main content: F1 {f1:.3} P {p:.3} R {r:.3}; all text: F1 {f1_all:.3} P {p_all:.3}");
    // All the text finds the body but with the template (precision about 0.5); the main
    // content must keep the recall and drop the template.
    assert!(f1 >= 0.93, "main-content F1 {f1:.3} on 16 benchmark pages, below its floor of 0.93");
    assert!(p >= 0.90 && r >= 0.93, "P {p:.3} R {r:.3}");
    assert!(f1 > f1_all + 0.2, "main content {f1:.3} is not far ahead of all the text {f1_all:.3}");
}
