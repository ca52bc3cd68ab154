#!/usr/bin/env python3
"""Write lld's symbol ordering file from callgrind runs of the tools.

usage: link-order.py [--probe BINARY] OUT MAPDIR CALLGRIND_OUT... [TRACE...]

MAPDIR holds TOOL.map, the lld map file (-Map=FILE --no-demangle) of the binary that was
profiled; each CALLGRIND_OUT is named N.TIER.TOOL.out (TIER 1: a typical run, 2: --help
or --version) and was written by `valgrind --tool=callgrind --dump-instr=yes
--compress-pos=no`; each TRACE, N.TIER.TOOL.mem, lists the data addresses a run of
`valgrind --tool=lackey --trace-mem=yes` read or wrote. Called by make-link-order.sh.

lld places whole input sections, in the order of the first listed symbol each one holds.
Swift code and most of libswiftCore.a have one section per function; the rest do not:
libswiftCore.a(Swift.o) has one 1.6 MB .text, each WayfindCore object a 20-40 KB .text
(its weak functions: specializations the module shares), libc one .text per object. The
map file turns each instruction a run executed into the input section it came from, and
the order is one of sections:

1. what the typical runs execute, then what only --help and --version execute;
2. in each, the GIANT sections (Swift.o's 1.6 MB, in which a routegraph-suggest run
   still takes about 17 page faults) after all the others, so as not to split the rest;
3. sections that four or five tools run in the middle, each tool's own on its side of
   them (TOOL_LINE); in each such group the small sections before the bigger ones, and
   those more runs executed first (then by name, so that the file changes only where
   the code did).

A section is named by its symbols; a name that several sections hold (a weak function, such
as a specialization or the value witness `$sSqwxx`, has a copy in each object file that
uses it) moves all of them, so the names chosen are those only this section holds, else the
function names it ran, and a section whose names would drag a big section along waits
until the end.

glibc picks its string functions (memchr, strlen, ...) for the CPU at start-up, and
valgrind's CPU is not this machine's (no AVX-512: __memchr_avx2 instead of __memchr_evex).
--probe BINARY (a tool that waits on standard input given the argument `x`) reads which
function each of those slots got, natively and under valgrind, and lists this machine's
choice next to valgrind's, so that both kinds of CPU find theirs in the cluster.

The data are ordered the same way, from lackey's traces: each address a run read or wrote
in .data.rel.ro, .data or .bss is mapped to its input section, and the sections
the runs touched go first in their output section, small before GIANT_DATA ones, so that
the writes land in few pages (a page of .bss costs a fault at the first read, the zero
page, and another at the first write). Swift objects have one .data and one .bss each,
libswiftCore's Swift.o one big one of each, the C++ runtime and libc one per variable or
object; lld orders them by any symbol they hold, local ones included.

lld skips the symbols a binary lacks (--no-warn-symbol-ordering), so one file serves all
five tools, and a stale file costs only speed.
"""
import bisect, os, re, struct, subprocess, sys, time

SMALL_SECTION = 12 * 1024  # bytes: one function, or a libc object's few
GIANT_SECTION = 256 * 1024  # bytes: only Swift.o's .text (1.6 MB); the next biggest the runs use is 40 KB
# Where each tool's own code goes: left or right of the code that four or five tools run,
# so that what a tool runs is one stretch of .text, and what two tools share lies between
# their own (for routegraph-suggest: its own code, then the common code).
TOOL_LINE = {"routegraph-visit": -2, "routegraph-suggest": -1, "smartgrep": 1, "magickey-suggest": 2, "magickey-find": 3}
# The output sections whose input sections are ordered by what the runs read or write: all
# in the writable segments but .rodata, which the runs only read (a read fault on it maps a
# 64 KiB window) and whose ordering measured slower (bench/README.md).
DATA_OUTPUTS = (".data.rel.ro", ".data", ".bss")
# bytes: data sections bigger than this (libswiftCore's Swift.o .bss, .data and .data.rel.ro,
# the metadata allocator's 64 KB first pool) go after the small ones they
# would otherwise scatter.
GIANT_DATA = 16 * 1024
MAP_LINE = re.compile(r"^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ (.*)$")


class LinkMap:
    """The input sections of one binary's .text and of its data output sections, from its
    lld map file."""

    def __init__(self, path):
        self.starts, self.sections = [], []  # .text: (start, size, name, [(address, symbol)])
        self.data = []  # the data outputs: (start, size, name, [(address, symbol)], output)
        current, seen = None, {}
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = MAP_LINE.match(line)
                if not m:
                    continue
                address, size, text = int(m.group(1), 16), int(m.group(2), 16), m.group(3)
                indent = len(text) - len(text.lstrip(" "))
                if indent == 0:
                    output = text.strip()
                    current = self.sections if output == ".text" else self.data if output in DATA_OUTPUTS else None
                elif current is not None and indent == 8 and size:
                    name = text.strip()
                    if current is self.data:  # an object can have several sections of one name: number them
                        seen[name] = seen.get(name, -1) + 1
                        name += f"#{seen[name]}" if seen[name] else ""
                    current.append((address, size, name, [], output))
                elif current is not None and indent == 16 and current:
                    current[-1][3].append((address, text.strip()))
        self.starts = [s[0] for s in self.sections]
        self.data.sort()
        self.data_starts = [s[0] for s in self.data]

    @staticmethod
    def _find(starts, sections, address):
        i = bisect.bisect_right(starts, address) - 1
        if i < 0:
            return None
        start, size, name, symbols, _ = sections[i]
        if address >= start + size:
            return None
        j = bisect.bisect_right(symbols, (address, "\U0010ffff")) - 1
        return name, size, symbols[j][1] if j >= 0 else None

    def find(self, address):
        """The .text section holding address and the symbol it is in, or None."""
        return self._find(self.starts, self.sections, address)

    def find_data(self, address):
        """The data section holding address, or None."""
        hit = self._find(self.data_starts, self.data, address)
        return hit and hit[0]


def executed(path):
    """Instruction addresses in a callgrind output (--dump-instr=yes --compress-pos=no)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return dict.fromkeys(int(line.split(None, 1)[0], 16) for line in f if line.startswith("0x"))


def accessed(path):
    """Data addresses in a lackey trace reduced by make-link-order.sh: one hex address a line."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return {int(line, 16) for line in f if line.strip()}


def data_order(maps, traces):
    """The names that place the data sections the runs read or wrote: in each output section,
    those of the typical runs, then those only --help and --version touch; in each, the
    small sections before the GIANT ones, and by tools and runs as the code is. Only names a
    single section holds are used (a local name, such as a lazy cache variable's, is in many
    objects); a section without one (lld's merged strings and constants) stays where it is."""
    size_of, output_of, symbols_of, holders = {}, {}, {}, {}
    for m in maps.values():
        for _, size, name, symbols, output in m.data:
            size_of[name], output_of[name] = size, output
            symbols_of[name] = [s for _, s in symbols]
            for _, s in symbols:
                holders.setdefault(s, set()).add(name)
    runs_of, tools_of, tier_of = {}, {}, {}
    for trace in traces:
        tier, tool = os.path.basename(trace).split(".")[1:3]
        for address in accessed(trace):
            section = maps[tool].find_data(address)
            if section is None:
                continue
            runs_of.setdefault(section, set()).add(trace)
            tools_of.setdefault(section, set()).add(tool)
            tier_of[section] = min(tier_of.get(section, 9), int(tier))

    def place(section):
        size, tools = size_of[section], tools_of[section]
        return (
            DATA_OUTPUTS.index(output_of[section]),
            tier_of[section],
            size > GIANT_DATA,
            size if size > GIANT_DATA else 0,
            0 if len(tools) >= 4 else sum(TOOL_LINE[t] for t in tools) / len(tools),
            -len(runs_of[section]),
            section,
        )

    names, unnamed = [], []
    for section in sorted(runs_of, key=place):
        own = [s for s in symbols_of[section] if holders[s] == {section}]
        if own:
            names.append(own[0])
        else:
            unnamed.append(section)
    pages = sum(size_of[s] for s in runs_of) // 1024
    print(
        f"data: {len(names)} symbols for {len(runs_of)} sections ({pages} KiB); "
        f"{len(unnamed)} without a name of their own ({sum(size_of[s] for s in unnamed) // 1024} KiB)"
    )
    return names


def ifunc_choices(binary, wrapper=()):
    """For each IRELATIVE slot of a static binary, the names of the function a live run
    put there (read from /proc/PID/mem while the binary waits on its standard input)."""
    relocs = subprocess.run(["readelf", "-rW", binary], capture_output=True, text=True, check=True).stdout
    slots = [int(m.group(1), 16) for m in re.finditer(r"^\s*([0-9a-f]+)\s+\S+\s+R_X86_64_IRELATIVE", relocs, re.M)]
    names = {}
    for line in subprocess.run(["nm", "--no-demangle", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "tT":
            names.setdefault(int(p[0], 16), []).append(p[2])
    proc = subprocess.Popen([*wrapper, binary, "x"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        while True:
            try:
                with open(f"/proc/{proc.pid}/mem", "rb") as mem:
                    values = []
                    for slot in slots:
                        mem.seek(slot)
                        values.append(struct.unpack("<Q", mem.read(8))[0])
            except OSError:  # not exec'd yet
                values = []
            if values and all(v in names for v in values):
                return {slot: names[v] for slot, v in zip(slots, values)}
            if time.time() > deadline:
                sys.exit(f"link-order.py: {binary}: the string function slots were not filled in 60 s")
            time.sleep(0.05)
    finally:
        proc.stdin.close()
        proc.wait()


def main():
    args = sys.argv[1:]
    probe = None
    if args[0] == "--probe":
        probe, args = args[1], args[2:]
    out, map_dir, runs = args[0], args[1], [a for a in args[2:] if a.endswith(".out")]
    traces = [a for a in args[2:] if a.endswith(".mem")]
    maps = {t: LinkMap(os.path.join(map_dir, t + ".map")) for t in TOOL_LINE}

    # Every section, by name: its size and symbols; and which sections hold each symbol name.
    size_of, symbols_of, holders = {}, {}, {}
    for m in maps.values():
        for _, size, name, symbols, _ in m.sections:
            size_of[name] = size
            symbols_of[name] = [s for _, s in symbols]
            for _, s in symbols:
                holders.setdefault(s, set()).add(name)

    # The sections each run executed, and the functions in them.
    runs_of, tools_of, tier_of, ran = {}, {}, {}, {}
    for run in runs:
        tier, tool = os.path.basename(run).split(".")[1:3]
        for address in executed(run):
            hit = maps[tool].find(address)
            if hit is None:
                continue
            section, _, symbol = hit
            runs_of.setdefault(section, set()).add(run)
            tools_of.setdefault(section, set()).add(tool)
            tier_of[section] = min(tier_of.get(section, 9), int(tier))
            if symbol:
                ran.setdefault(section, set()).add(symbol)

    # This machine's string functions stand in for valgrind's.
    if probe:
        native, valgrind = ifunc_choices(probe), ifunc_choices(probe, ("valgrind", "--tool=none"))
        for slot, chosen in valgrind.items():
            used = [s for name in chosen for s in holders.get(name, ()) if s in runs_of]
            for name in native[slot]:
                for section in holders.get(name, ()):
                    if used and section not in runs_of:
                        runs_of[section] = runs_of[used[0]]
                        tools_of[section] = set(tools_of[used[0]])
                        tier_of[section] = tier_of[used[0]]
                        ran[section] = {name}

    def place(section):
        size, tools = size_of[section], tools_of[section]
        return (
            tier_of[section],
            size > GIANT_SECTION,
            0 if len(tools) >= 4 else sum(TOOL_LINE[t] for t in tools) / len(tools),
            size > SMALL_SECTION,
            -len(runs_of[section]),
            section,
        )

    # The names that place each section, in order; a section that can only be named by a
    # name a big section also holds waits until the end.
    names, late, placed = [], [], set()
    for section in sorted(runs_of, key=place):
        if section in placed:
            continue
        own = [s for s in symbols_of[section] if holders[s] == {section}]
        chosen = [s for s in own if s in ran.get(section, ())] or own[:1]
        if chosen:
            names += chosen
            placed.add(section)
            continue
        chosen = sorted(ran.get(section, ()))
        dragged = {h for s in chosen for h in holders[s]}
        if all(size_of[h] <= SMALL_SECTION for h in dragged - {section}) or size_of[section] > GIANT_SECTION:
            names += chosen
            placed |= dragged
        else:
            late.append(chosen)
    for chosen in late:
        names += chosen
    names += data_order(maps, traces)
    seen = set()
    names = [n for n in names if not (n in seen or seen.add(n))]

    with open(out, "w", encoding="utf-8") as f:
        f.write("".join(n + "\n" for n in names))
    small = [s for s in runs_of if size_of[s] <= SMALL_SECTION]
    print(
        f"{out}: {len(names)} symbols for {len(runs_of)} sections: {len(small)} small ones "
        f"({sum(size_of[s] for s in small) // 1024} KiB), {len(runs_of) - len(small)} bigger ones "
        f"({sum(size_of[s] for s in runs_of) // 1024 - sum(size_of[s] for s in small) // 1024} KiB), "
        f"{len(late)} named only with a big section's names"
    )


main()
