#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Platform {
    /// Runs `other` on a thread of its own while `body` runs on this one, and returns
    /// when both have: the two halves of one read, or a save and the removal of what
    /// earlier saves left, for the machine's second core. `other` runs here after `body`
    /// when no thread can be started (and off Linux). The caller keeps what the two
    /// share apart (each writes only its own results; the join orders the writes before
    /// the return).
    static func concurrently(_ other: @escaping () -> Void, while body: () -> Void) {
        #if !os(Linux)
            body()
            other()
        #else
            start(other, while: body)
        #endif
    }

    #if os(Linux)
    private static func start(_ other: @escaping () -> Void, while body: () -> Void) {
        let box = Unmanaged.passRetained(Work(other)).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, box) == 0 else {
            body()
            Unmanaged<Work>.fromOpaque(box).takeRetainedValue().run()
            return
        }
        body()
        pthread_join(thread, nil)
    }
    #endif

    /// The work handed to the thread.
    private final class Work {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
