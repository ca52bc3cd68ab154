#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One piece of work on a second POSIX thread, for a scan that splits its input in two
/// (no Foundation, no Dispatch: the binaries are static and start in a millisecond).
///
/// The caller keeps the data race out: `work` touches only what the caller leaves alone
/// until `join()` returns.
final class BackgroundWork: @unchecked Sendable {
    private let work: () -> Void
    private var thread = pthread_t()
    private var isRunning = false

    init(_ work: @escaping () -> Void) {
        self.work = work
    }

    /// Starts the thread; false if it could not be created (then run the work inline).
    func start() -> Bool {
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                let job = Unmanaged<BackgroundWork>.fromOpaque(context).takeRetainedValue()
                job.work()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<BackgroundWork>.fromOpaque(context).release()
            return false
        }
        isRunning = true
        return true
    }

    /// Waits for the thread to finish; does nothing if it was never started.
    func join() {
        guard isRunning else { return }
        pthread_join(thread, nil)
        isRunning = false
    }
}
