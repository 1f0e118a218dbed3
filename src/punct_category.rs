// The scheme's definition of punctuation, by general category: P*, Sm, Sc and Sk (the
// Unicode counterparts of ASCII punctuation). One copy, `include!`d by build.rs, which
// derives the run-time bitmap of `normalize::is_punct` from it, and by the test in
// src/normalize.rs that checks that bitmap on every code point.

/// `true` when the general category of `c` is P*, Sm, Sc or Sk.
fn punct_by_category(c: char) -> bool {
    use unicode_properties::{GeneralCategory::*, UnicodeGeneralCategory};
    matches!(
        c.general_category(),
        ConnectorPunctuation
            | DashPunctuation
            | OpenPunctuation
            | ClosePunctuation
            | InitialPunctuation
            | FinalPunctuation
            | OtherPunctuation
            | MathSymbol
            | CurrencySymbol
            | ModifierSymbol
    )
}
