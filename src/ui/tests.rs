//! Tests of the UI: update logic, fuzzing and screen snapshots.
