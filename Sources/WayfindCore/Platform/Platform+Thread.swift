#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Platform {
    /// Work started on a thread of its own, which runs until `wait()` returns: one of
    /// smartgrep's searching threads (`SmartgrepPool`). The work runs in `wait()` instead
    /// when no thread can be started (and off Linux). Until `wait()` returns, the caller
    /// must not touch what the work writes; afterwards it sees all of it.
    package final class Background {
        private var work: (() -> Void)?
        /// Whether the work runs on a thread of its own (not in `wait()`).
        package private(set) var isOnThread = false
        #if os(Linux)
            private var thread = pthread_t()
        #endif

        package init(_ work: @escaping () -> Void) {
            self.work = work
            #if os(Linux)
                let box = Unmanaged.passRetained(Work(work)).toOpaque()
                let started = pthread_create(&thread, nil, { context in
                    Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, box) == 0
                if started {
                    self.work = nil
                    isOnThread = true
                } else {
                    Unmanaged<Work>.fromOpaque(box).release()
                }
            #endif
        }

        /// Returns once the work has run; again at once.
        package func wait() {
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

    /// The number of processors online (at least 1): smartgrep's default `-j`.
    package static var processorCount: Int {
        max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
    }

    /// A mutex with a few conditions: the lock and the wake-ups of smartgrep's pool of
    /// searching threads (`SmartgrepPool`). `locked` runs its body holding the lock;
    /// `wait(for:)` (only inside it) sleeps until that condition is signalled, and holds
    /// the lock again when it returns.
    package final class Monitor: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let conditions: UnsafeMutablePointer<pthread_cond_t>
        private let count: Int

        /// A monitor with conditions numbered from 0 to `conditions - 1`.
        package init(conditions: Int) {
            count = conditions
            self.conditions = .allocate(capacity: conditions)
            pthread_mutex_init(mutex, nil)
            for i in 0..<conditions { pthread_cond_init(self.conditions + i, nil) }
        }

        deinit {
            for i in 0..<count { pthread_cond_destroy(conditions + i) }
            pthread_mutex_destroy(mutex)
            conditions.deallocate()
            mutex.deallocate()
        }

        /// Runs `body` holding the lock.
        package func locked<R>(_ body: () throws -> R) rethrows -> R {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body()
        }

        /// Runs `body` without the lock, inside `locked` (to write output while other
        /// threads go on).
        package func unlocked<R>(_ body: () throws -> R) rethrows -> R {
            pthread_mutex_unlock(mutex)
            defer { pthread_mutex_lock(mutex) }
            return try body()
        }

        /// Sleeps until `condition` is signalled (or spuriously: callers wait in a loop).
        package func wait(for condition: Int) { pthread_cond_wait(conditions + condition, mutex) }

        /// Wakes one thread waiting for `condition`.
        package func signal(_ condition: Int) { pthread_cond_signal(conditions + condition) }

        /// Wakes every thread waiting for `condition`.
        package func broadcast(_ condition: Int) { pthread_cond_broadcast(conditions + condition) }
    }

    /// The work handed to the thread.
    private final class Work {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
