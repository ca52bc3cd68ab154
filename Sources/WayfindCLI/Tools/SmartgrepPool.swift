import WayfindCore

import Synchronization

/// smartgrep's search of many files on several threads, printed as one thread prints it.
///
/// A tree of small files costs a little reading and much per-file work (open, read,
/// search, close), and one thread leaves the other processors idle. So the files, in the
/// order of `-j 1`, are cut into numbered jobs of up to `filesPerJob` files that a fixed
/// set of threads (the calling thread one of them) take in turn; the walk that finds them
/// is taken in turn too, a few jobs at a time, by a thread that finds few jobs left. Each
/// thread searches its job's files into the job's own buffer, and the thread that
/// finishes the first job in line prints it, and every job after it that is done:
///
///     walk (whichever thread):  a.h b.h | c.h d.h | …  → jobs 0 1 …, at most `window`
///     threads:                  search 0, then 2 …    |  search 1, then 3 …
///     printing:                 0 once done (by its thread), then 1 and 2 if done …
///
/// so the bytes are those of `-j 1`: each file's lines together, files in order, and
/// grep's `--` between context groups of different files (a job's first group notes
/// where it starts; the separator goes there when an earlier job printed a group), and
/// standard error's messages where they came among the lines.
///
/// Memory stays bounded whatever the tree: at most `window` jobs are in flight (no more
/// are walked), and a job whose output passes `spillSize` waits until it is first in
/// line, then prints as it goes, so one large file streams as it does with `-j 1`. Output
/// closed early (`| head -1`) stops every thread at its next block; `-q`'s match stops
/// the jobs after its own, and the jobs before it finish and print their messages, as
/// with one thread.
///
/// (A thread of its own for the walk, handing files over one by one, woke the threads
/// about 7,000 times in `smartgrep -rI zebra /usr/share`, against 60 for rg, and left a
/// processor idle a third of the time; a job per file made the threads' shared
/// reference counts and locking cost 40 % more processor time than one thread.)
final class SmartgrepPool {
    /// Jobs in flight per thread: enough that a thread never waits for a slow file before
    /// it (a few large files among many small ones), or for the walk to list a large
    /// directory (/usr/share/man/man1's 18,000 entries take 10 ms, about 2,000 skipped
    /// binary files' time). The walk keeps half of them walked ahead; what they hold is
    /// bounded by `heldBudget`, not by their number. (`-rI lib /usr/share`: 250 ms at 64,
    /// 239 ms at 128; peak memory 18 MB either way.)
    static let jobsPerThread = 128
    /// Files per job: enough that a tree of small files costs few turns of the lock.
    static let filesPerJob = 16
    /// Jobs walked at a time.
    static let walkedAtATime = 16
    /// The output a job holds before it may wait to be first in line and print it as it
    /// goes: when the jobs not yet printed hold more than `heldBudget` together, or it holds
    /// `jobCap` alone. (A job waiting at 64 KiB whatever the others held left one thread
    /// working on `-rn the /usr/share/doc`, 21 MB of output.)
    static let spillSize = 64 * 1024
    static let heldBudget = 8 << 20
    static let jobCap = 1 << 20

    /// The lock, and what its threads wait for: a job to take (`work`), their job first in
    /// line and the output free (`head`).
    private let monitor = Platform.Monitor(conditions: 2)
    private static let work = 0
    private static let head = 1
    /// `stopAfter` (-1 once `stopped`), read without the lock after each block searched.
    private let stopFlag = Atomic<Int>(.max)
    /// The output bytes the jobs not yet printed hold (`SmartgrepJob.counted`, summed).
    private let held = Atomic<Int>(0)
    /// The search that prints (the caller's, with the real output); it also sums up the
    /// status.
    private var printer: SmartgrepSearch
    private let window: Int
    /// The walk: only the thread that set `walking` touches it, without the lock.
    private var walk: SmartgrepWalk
    // Shared state, under `monitor`:
    private var walking = false
    private var walkEnded = false
    /// The jobs not yet printed, in walk order; `jobs[0]` is number `printed`.
    private var jobs: [SmartgrepJob] = []
    private var printed = 0
    /// The number of the next job a thread takes.
    private var nextToStart = 0
    /// Output was closed, or everything up to `stopAfter` is printed: every thread stops.
    private var stopped = false
    /// The number of the first job that selected a line under -q: later jobs stop, and are
    /// neither taken nor printed.
    private var stopAfter = Int.max
    /// A thread is writing to the real output (only one at a time, in job order).
    private var printing = false
    /// Threads waiting for their job to be first, to print its output.
    private var spillers = 0
    /// Threads waiting for a job.
    private var idle = 0
    /// Buffers of jobs printed, for the next jobs taken: a file costs no allocation.
    private var spareBuffers: [OutputBuffer] = []
    /// Only the thread printing touches this: whether some file printed a context group.
    private var printedGroup = false

    private init(printer: SmartgrepSearch, threads: Int) {
        self.printer = printer
        window = threads * Self.jobsPerThread
        walk = SmartgrepWalk(options: printer.options)
    }

    /// Runs `search`'s files on `threads` threads (the calling thread and `threads - 1`
    /// more) and returns the exit status; nil when no thread could be started (the caller
    /// then searches alone).
    static func run(_ search: SmartgrepSearch, threads: Int, context: ToolContext) -> ExitStatus? {
        let pool = SmartgrepPool(printer: search, threads: threads)
        let workers = (0..<threads).map { _ in
            var search = SmartgrepSearch(options: search.options, output: OutputBuffer(collecting: ()), errors: search.errors)
            search.pool = pool
            return Worker(search)
        }
        var started: [Platform.Background] = []
        for worker in workers.dropFirst() {
            let thread = Platform.Background { pool.work(worker, context: context) }
            if !thread.isOnThread && started.isEmpty {
                // Off Linux, or out of threads: the work would run only in `wait()`.
                pool.monitor.locked { pool.stop() }
                thread.wait()
                return nil
            }
            // (A later thread that did not start runs in `wait()`, and finds nothing left.)
            started.append(thread)
        }
        pool.work(workers[0], context: context)
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
        /// The jobs it walked, before they join `jobs`.
        var walked: [SmartgrepJob] = []
        /// What it walked that does not make a job yet.
        var files: [SmartgrepItem] = []
        init(_ search: SmartgrepSearch) { self.search = search }
    }

    /// Stops every thread (under the lock).
    private func stop() {
        stopped = true
        stopFlag.store(-1, ordering: .relaxed)
        for condition in [Self.work, Self.head] { monitor.broadcast(condition) }
    }

    /// A thread's loop: takes the next job in walk order and searches its files.
    private func work(_ worker: Worker, context: ToolContext) {
        var finished: SmartgrepJob? = nil
        while let job = next(after: finished, stops: worker.search.stopAll, worker: worker) {
            worker.search.job = job
            worker.search.output = job.output
            worker.search.printedGroup = false
            for item in job.items where !worker.search.stopAll {
                switch item {
                case .file(let path, let inTurn): worker.search.searchFile(path, regular: !inTurn, context: context)
                case .message(let text, let isError): worker.search.walkMessage(text, isError: isError)
                }
            }
            worker.search.job = nil
            finished = job
        }
    }

    /// Marks `finished` done (`stops`: its search selected a line under -q, or was told to
    /// stop) and prints what is ready, then takes the next job no thread has taken, in
    /// walk order, walking further first when few are left and no other thread walks; nil
    /// when the walk has ended and all are taken, or everything stops.
    private func next(after finished: SmartgrepJob?, stops: Bool, worker: Worker) -> SmartgrepJob? {
        monitor.locked {
            if let finished {
                finished.done = true
                if stops && finished.number < stopAfter {
                    stopAfter = finished.number
                    stopFlag.store(stopAfter, ordering: .relaxed)
                }
                printReady(&worker.ready)
            }
            while !stopped && nextToStart <= stopAfter {
                let untaken = printed + jobs.count - nextToStart
                if !walking && !walkEnded && untaken < window / 2 && jobs.count < window {
                    walkFurther(worker)
                    continue
                }
                if untaken > 0 {
                    let job = jobs[nextToStart - printed]
                    if !job.inTurn || nextToStart == printed {
                        nextToStart += 1
                        job.output = spareBuffers.popLast() ?? OutputBuffer(collecting: ())
                        return job
                    }
                } else if walkEnded {
                    return nil
                }
                idle += 1
                monitor.wait(for: Self.work)
                idle -= 1
            }
            return nil
        }
    }

    /// Walks as far as makes `walkedAtATime` jobs, as far as the window has room, and
    /// queues them (under the lock; it lets go while walking). A message of the walk's, and
    /// a file to read in its turn, are jobs of their own.
    private func walkFurther(_ worker: Worker) {
        walking = true
        let count = min(Self.walkedAtATime, window - jobs.count)
        let ended = monitor.unlocked {
            /// Makes the files walked so far a job.
            func cut() {
                if !worker.files.isEmpty { worker.walked.append(SmartgrepJob(worker.files)) }
                worker.files.removeAll(keepingCapacity: true)
            }
            while worker.walked.count < count {
                guard let item = walk.next() else {
                    cut()
                    return true
                }
                switch item {
                case .message, .file(_, inTurn: true):
                    cut()
                    worker.walked.append(SmartgrepJob([item]))
                case .file:
                    worker.files.append(item)
                    if worker.files.count == Self.filesPerJob { cut() }
                }
            }
            cut()
            return false
        }
        walking = false
        for job in worker.walked {
            job.number = printed + jobs.count
            jobs.append(job)
        }
        worker.walked.removeAll(keepingCapacity: true)
        if ended { walkEnded = true }
        if idle > 0 { monitor.broadcast(Self.work) }
    }

    /// Prints the jobs done at the head of the line, unless another thread is printing
    /// (it prints them when it is through). Under the lock; it lets go while writing.
    ///
    /// The jobs to print move to the thread's own `ready` first: a slice of `jobs` kept
    /// while writing made the next change to `jobs` copy it, a retain for each job in
    /// flight (2 % of `-rI zebra /usr/share` on two threads).
    private func printReady(_ ready: inout [SmartgrepJob]) {
        while !stopped && !printing, let first = jobs.first, first.done, first.number <= stopAfter {
            printing = true
            // (Not past a -q match's job: what follows it is neither searched nor printed.)
            let count = jobs.prefix { $0.done && $0.number <= stopAfter }.count
            ready.append(contentsOf: jobs[..<count])
            jobs.removeFirst(count)
            printed += count
            let closed = monitor.unlocked {
                for job in ready { emit(job) }
                return printer.output.isClosed
            }
            for job in ready where spareBuffers.count < window { spareBuffers.append(job.output) }
            ready.removeAll(keepingCapacity: true)
            printing = false
            if closed || printed > stopAfter { stop() }
            if idle > 0 && !walking { monitor.broadcast(Self.work) }
            if spillers > 0 { monitor.broadcast(Self.head) }
        }
    }

    /// After each block a thread searched of `job`: prints its output when it has grown
    /// too large to hold (see `spillSize`), once the job is first in line; false when
    /// everything stops.
    func blockSearched(_ job: SmartgrepJob, output: OutputBuffer) -> Bool {
        if output.count != job.counted {
            held.wrappingAdd(output.count - job.counted, ordering: .relaxed)
            job.counted = output.count
        }
        guard output.count >= Self.spillSize && (output.count >= Self.jobCap || held.load(ordering: .relaxed) > Self.heldBudget)
        else { return job.number <= stopFlag.load(ordering: .relaxed) }
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

    /// Writes what `job` holds to the real output, and its messages to standard error
    /// where they came between its lines.
    private func emit(_ job: SmartgrepJob) {
        let output = printer.output
        job.output.withCollectedBytes { bytes in
            var written = 0
            func write(upTo end: Int) {
                if let at = job.firstGroupAt, at >= written && at < end {
                    output.write(UnsafeBufferPointer(rebasing: bytes[written..<at]))
                    if printedGroup { printer.writeGroupSeparator() }
                    printedGroup = true
                    written = at
                }
                output.write(UnsafeBufferPointer(rebasing: bytes[written..<end]))
                written = end
            }
            for message in job.messages {
                write(upTo: min(message.at, bytes.count))
                output.flush()
                printer.errors.report(message.text)
            }
            write(upTo: bytes.count)
        }
        job.firstGroupAt = nil
        job.output.removeAll()
        job.messages.removeAll()
        held.wrappingSubtract(job.counted, ordering: .relaxed)
        job.counted = 0
        output.endRecord()
    }
}

/// Files of the walk handed together to one of a `SmartgrepPool`'s threads (or a message
/// of the walk's), and what their search printed.
final class SmartgrepJob {
    let items: [SmartgrepItem]
    /// Standard output's bytes, not yet printed: a buffer given when a thread takes the
    /// job (nil only before).
    var output: OutputBuffer! = nil
    /// Lines for standard error, each printed after the first `at` bytes of the output.
    var messages: [(at: Int, text: String)] = []
    /// Where in `output` the job's first context group starts (see `separateGroup`).
    var firstGroupAt: Int? = nil
    /// The search is over (under the pool's lock).
    var done = false
    /// Its file is read only once every job before it is printed (`SmartgrepItem.file`).
    let inTurn: Bool
    /// Its place in walk order (set as it is queued).
    var number = 0
    /// The bytes of `output` counted in the pool's `held`.
    var counted = 0

    init(_ items: [SmartgrepItem]) {
        self.items = items
        if case .file(_, true) = items.first { inTurn = true } else { inTurn = false }
    }
}
