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
        let thread = Background(other)
        body()
        thread.wait()
    }

    /// Work started on a thread of its own, which runs until `wait()` returns: a save
    /// that writes what it can while its caller works out the rest (see
    /// `FileSystem.BegunSave`). The work runs in `wait()` instead when no thread can be
    /// started (and off Linux). Until `wait()` returns, the caller must not touch what the
    /// work writes; afterwards it sees all of it.
    final class Background {
        private var work: (() -> Void)?
        #if os(Linux)
            private var thread = pthread_t()
        #endif

        init(_ work: @escaping () -> Void) {
            self.work = work
            #if os(Linux)
                let box = Unmanaged.passRetained(Work(work)).toOpaque()
                let started = pthread_create(&thread, nil, { context in
                    Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, box) == 0
                if started {
                    self.work = nil
                } else {
                    Unmanaged<Work>.fromOpaque(box).release()
                }
            #endif
        }

        /// Returns once the work has run; again at once.
        func wait() {
            if let work {
                self.work = nil
                work()
                return
            }
            #if os(Linux)
                if thread != pthread_t() {
                    pthread_join(thread, nil)
                    thread = pthread_t()
                }
            #endif
        }

        deinit { wait() }
    }

    /// The work handed to the thread.
    private final class Work {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
