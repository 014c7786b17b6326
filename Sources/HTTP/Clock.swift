import Dispatch

/// Seconds on a monotonic clock: pacing and backoff must not jump with the wall clock.
func monotonicSeconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
}
