//! Independent checks spread over every core (the NVRTC tests compile hundreds of programs).

/// Runs `check` on every item, on all cores, and returns every problem it reports (in no
/// particular order); a worker that panics counts as a problem too.
pub fn problems_on_every_core<T: Sync>(
    items: &[T],
    check: impl Fn(&T) -> Vec<String> + Sync,
) -> Vec<String> {
    if items.is_empty() {
        return Vec::new();
    }
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let check = &check;
    std::thread::scope(|s| {
        let workers: Vec<_> = items
            .chunks(items.len().div_ceil(threads))
            .map(|chunk| s.spawn(move || chunk.iter().flat_map(check).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| {
                w.join()
                    .unwrap_or_else(|_| vec!["a worker panicked".into()])
            })
            .collect()
    })
}
