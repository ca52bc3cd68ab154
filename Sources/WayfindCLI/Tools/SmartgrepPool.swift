import WayfindCore

import Synchronization

/// smartgrep's search of many files on several threads, printed as one thread prints it.
///
/// A tree of small files costs a little reading and much per-file work (open, read,
/// search, close), and one thread leaves the other processors idle. So the walk stays on
/// the calling thread, in the order of `-j 1`, and hands the files, numbered, to a fixed
/// pool of threads, a few at a time; each thread searches its file into the file's own
/// buffer, and the thread that finishes the first file in line prints it, and every file
/// after it that is done:
///
///     walk (calling thread):  a.h b.h c.h d.h …     → jobs 0 1 2 3 …, at most `window`
///     threads:                search 0, then 2 …   |   search 1, then 3 …
///     printing:               0 once done (by its thread), then 1 and 2 if done …
///
/// so the bytes are those of `-j 1`: each file's lines together, files in order, and
/// grep's `--` between context groups of different files (a file's first group notes
/// where it starts; the separator goes there when an earlier file printed a group).
///
/// Memory stays bounded whatever the tree: at most `window` files are in flight (the walk
/// waits), and a file whose output passes `spillSize` waits until it is first in line,
/// then prints as it goes, so one large file streams as it does with `-j 1`. `-q` and
/// output closed early (`| head -1`) stop every thread at its next block.
final class SmartgrepPool {
    /// Files in flight per thread: enough that a thread never waits for a slow file before
    /// it (a few large files among many small ones), few enough that their held output
    /// stays small.
    static let filesPerThread = 32
    /// Files handed over at a time: a thread is woken once for several small files.
    static let batch = 8
    /// The output a file holds before it waits to be first and prints it as it goes.
    static let spillSize = 64 * 1024

    /// The lock, and what its threads wait for: a job to take (`work`), room in the window
    /// (`walk`), their job first in line and the output free (`head`).
    private let monitor = Platform.Monitor(conditions: 3)
    private static let work = 0
    private static let walk = 1
    private static let head = 2
    /// `stopped`, read without the lock after each block searched.
    private let stopFlag = Atomic<Bool>(false)
    /// The search that prints (the caller's, with the real output); it also sums up the
    /// status.
    private var printer: SmartgrepSearch
    private let window: Int
    // Shared state, under `monitor`:
    /// The jobs not yet printed, in walk order; `jobs[0]` is number `printed`.
    private var jobs: [SmartgrepJob] = []
    private var printed = 0
    /// The number of the next job a thread takes.
    private var nextToStart = 0
    private var walkEnded = false
    /// A line was selected under -q, or output was closed: every thread stops.
    private var stopped = false
    /// A thread is writing to the real output (only one at a time, in job order).
    private var printing = false
    /// Threads waiting for their job to be first, to print its output.
    private var spillers = 0
    /// Buffers of jobs printed, for the next jobs taken: a file costs no allocation.
    private var spareBuffers: [OutputBuffer] = []
    /// The walk waits for room in the window.
    private var walkWaits = false
    /// Only the thread printing touches this: whether some file printed a context group.
    private var printedGroup = false

    private init(printer: SmartgrepSearch, window: Int) {
        self.printer = printer
        self.window = window
    }

    /// Runs `search`'s files on `threads` threads and returns the exit status; nil when
    /// no thread could be started (the caller then searches alone).
    static func run(_ search: SmartgrepSearch, threads: Int, context: ToolContext) -> ExitStatus? {
        let pool = SmartgrepPool(printer: search, window: threads * filesPerThread)
        var workers: [Worker] = []
        var started: [Platform.Background] = []
        for _ in 0..<threads {
            var search = SmartgrepSearch(options: search.options, output: OutputBuffer(collecting: ()), errors: search.errors)
            search.pool = pool
            let worker = Worker(search)
            let thread = Platform.Background { pool.work(worker, context: context) }
            if !thread.isOnThread && started.isEmpty {
                // Off Linux, or out of threads: the work would run only in `wait()`.
                pool.monitor.locked { pool.stop() }
                thread.wait()
                return nil
            }
            // (A later thread that did not start runs in `wait()`, and finds nothing left.)
            started.append(thread)
            workers.append(worker)
        }
        var pending: [SmartgrepJob] = []
        SmartgrepWalk(options: search.options).run { item in
            pending.append(SmartgrepJob(item))
            return pending.count < batch || pool.hand(&pending)
        }
        if !pending.isEmpty { _ = pool.hand(&pending) }
        pool.monitor.locked {
            pool.walkEnded = true
            pool.monitor.broadcast(work)
            while !pool.stopped && !pool.jobs.isEmpty {
                pool.walkWaits = true
                pool.monitor.wait(for: walk)
            }
        }
        for thread in started { thread.wait() }
        for worker in workers {
            pool.printer.selectedTotal += worker.search.selectedTotal
            pool.printer.hadError = pool.printer.hadError || worker.search.hadError
        }
        return pool.printer.finish()
    }

    /// A thread's own search (its matcher, finder and counts), kept for the sums at the end.
    private final class Worker {
        var search: SmartgrepSearch
        /// The jobs it prints (see `printReady`), kept for its capacity.
        var ready: [SmartgrepJob] = []
        init(_ search: SmartgrepSearch) { self.search = search }
    }

    /// Stops every thread (under the lock).
    private func stop() {
        stopped = true
        stopFlag.store(true, ordering: .relaxed)
        for condition in [Self.work, Self.walk, Self.head] { monitor.broadcast(condition) }
    }

    /// Queues the jobs of `pending` (and empties it) once the window has room; false once
    /// everything stops.
    private func hand(_ pending: inout [SmartgrepJob]) -> Bool {
        monitor.locked {
            while !stopped && jobs.count >= window {
                walkWaits = true
                monitor.wait(for: Self.walk)
            }
            if stopped { return false }
            jobs += pending
            pending.removeAll(keepingCapacity: true)
            monitor.broadcast(Self.work)
            return true
        }
    }

    /// A thread's loop: takes the next job in walk order and searches it.
    private func work(_ worker: Worker, context: ToolContext) {
        var finished: SmartgrepJob? = nil
        while let job = next(after: finished, stops: worker.search.stopAll, ready: &worker.ready) {
            worker.search.job = job
            switch job.item {
            case .file(let path):
                worker.search.output = job.output
                worker.search.printedGroup = false
                worker.search.searchFile(path, context: context)
            case .message(let text, let isError):
                worker.search.walkMessage(text, isError: isError)
            }
            worker.search.job = nil
            finished = job
        }
    }

    /// Marks `finished` done (`stops`: its search stopped everything) and prints what is
    /// ready, then takes the next job no thread has taken, in walk order; nil when the
    /// walk has ended and all are taken, or everything stops.
    private func next(after finished: SmartgrepJob?, stops: Bool, ready: inout [SmartgrepJob]) -> SmartgrepJob? {
        monitor.locked {
            if let finished {
                finished.done = true
                if stops { stop() }
                printReady(&ready)
            }
            while !stopped {
                if nextToStart < printed + jobs.count {
                    nextToStart += 1
                    let job = jobs[nextToStart - 1 - printed]
                    job.output = spareBuffers.popLast() ?? OutputBuffer(collecting: ())
                    return job
                }
                if walkEnded { return nil }
                monitor.wait(for: Self.work)
            }
            return nil
        }
    }

    /// Prints the jobs done at the head of the line, unless another thread is printing
    /// (it prints them when it is through). Under the lock; it lets go while writing.
    ///
    /// The jobs to print move to the thread's own `ready` first: a slice of `jobs` kept
    /// while writing made the next change to `jobs` copy it, a retain for each job in
    /// flight (2 % of `-rI zebra /usr/share` on two threads).
    private func printReady(_ ready: inout [SmartgrepJob]) {
        while !stopped && !printing, let first = jobs.first, first.done {
            printing = true
            let count = jobs.prefix { $0.done }.count
            ready.append(contentsOf: jobs[..<count])
            jobs.removeFirst(count)
            printed += count
            let closed = monitor.unlocked {
                for job in ready { emit(job) }
                return printer.output.isClosed
            }
            for job in ready { spareBuffers.append(job.output) }
            ready.removeAll(keepingCapacity: true)
            printing = false
            if closed { stop() }
            if walkWaits && (jobs.count <= window / 2 || walkEnded) {
                walkWaits = false
                monitor.broadcast(Self.walk)
            }
            if spillers > 0 { monitor.broadcast(Self.head) }
        }
    }

    /// After each block a thread searched of `job`: prints its output when it has grown
    /// past `spillSize` (once the job is first in line); false when everything stops.
    func blockSearched(_ job: SmartgrepJob, output: OutputBuffer) -> Bool {
        guard output.count >= Self.spillSize else { return !stopFlag.load(ordering: .relaxed) }
        return monitor.locked {
            spillers += 1
            while !stopped && (jobs.first !== job || printing) { monitor.wait(for: Self.head) }
            spillers -= 1
            if stopped { return false }
            printing = true
            let closed = monitor.unlocked {
                emit(job)
                return printer.output.isClosed
            }
            printing = false
            if closed { stop() }
            if spillers > 0 { monitor.broadcast(Self.head) }
            return !stopped
        }
    }

    /// Writes what `job` holds to the real output, then its messages to standard error.
    private func emit(_ job: SmartgrepJob) {
        let output = printer.output
        job.output.withCollectedBytes { bytes in
            guard let at = job.firstGroupAt else {
                output.write(bytes)
                return
            }
            output.write(UnsafeBufferPointer(rebasing: bytes[..<at]))
            if printedGroup { printer.writeGroupSeparator() }
            output.write(UnsafeBufferPointer(rebasing: bytes[at...]))
            printedGroup = true
        }
        job.firstGroupAt = nil
        job.output.removeAll()
        output.endRecord()
        for message in job.messages {
            output.flush()
            printer.errors.report(message)
        }
        job.messages.removeAll()
    }
}

/// One step of the walk handed to a `SmartgrepPool`'s threads, and what its search printed.
final class SmartgrepJob {
    let item: SmartgrepItem
    /// Standard output's bytes, not yet printed: a buffer given when a thread takes the
    /// job (nil only before).
    var output: OutputBuffer! = nil
    /// Lines for standard error, printed after the output.
    var messages: [String] = []
    /// Where in `output` the file's first context group starts (see `separateGroup`).
    var firstGroupAt: Int? = nil
    /// The search is over (under the pool's lock).
    var done = false

    init(_ item: SmartgrepItem) { self.item = item }
}
