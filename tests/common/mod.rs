//! Shared by the integration tests: the seeded generator the unit tests use too.

include!("../../src/test_rng.rs");
