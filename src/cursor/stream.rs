//! stream parser: being written
