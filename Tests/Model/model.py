"""The sync contract, stated as a small executable model (issue 10, "How sync decides").

Written apart from the Swift code, to be read as the specification the randomized test
(driver.py) holds pkgbuild to. No GDAL, no SQLite: plain values.

A row is a dict column -> value; the key of a row is (table, globalid). Values are tagged
pairs, so that equality is the contract's equality:
  ('null', None), ('integer', 5), ('real', 2.5), ('text', b'bytes'), ('blob', b'...'),
  ('geom', (wkb_type, coordinates)) -- type and dimensions in the ISO WKB type code, every
  vertex in order with its exact values; only the blob's encoding is forgotten.
Text compares as bytes: b'Do\\xf1a' (Latin-1) is not b'Do\\xc3\\xb1a' (UTF-8).

A package holds its rows and, for each row it changed locally, the row's base (as
extracted or last synced; None for a row it inserted). The pending change of a row is the
difference between base and current: a row set back to its base has none.

A sync is a per-column three-way merge of base, package and the source's row now:
  - changed on one side only: that side wins;
  - changed on both sides to the same value: no conflict;
  - changed on both sides differently, or an update against a delete: a conflict, settled
    by the policy: 'fail' changes nothing on either side and exits 2; 'source-wins' and
    'package-wins' take that side's value (or deletion).
  - a result the source refuses (a duplicate in a UNIQUE column) is a conflict too: 'fail'
    changes nothing (exit 2); under the other policies the row stays pending, untouched on
    both sides, and the sync exits 2 (only 'resolve --take source' discards the change).
    Rows go up in any order that frees each unique value before another row takes it; an
    exchange of two values has no such order and is refused.
  - a result the source cannot hold is refused the same way: at a source that stores UTF-8
    text only (a PostgreSQL database in UTF8, as every PostgreSQL source the tests use), text
    that is not UTF-8 (Latin-1 bytes) is a constraint conflict, the edit kept in the package
    byte for byte. A GeoPackage source stores every text as given.
Directions: 'upload' carries local changes up only, 'download' source changes down only,
'bidirectional' both. A change the direction does not carry stays pending (exit 0); a
source change to a row with a pending local change waits for that change to be settled.
The package's own upload is not echoed back: after a sync that settles a row, package and
source hold the same merged row. A row written back to its base (a revert, the same values
saved again) is no change: nothing goes up and nothing is settled.
Membership: after a sync, a row the sync carried down (or settled) belongs to the package
when the source's row intersects the package's area; others leave it. A source row (or a
settled row's merged result) whose unique value a pending local row holds waits for a later
sync (the package keeps the copy it had, unless a row that came down took that copy's value).
A settled row written without a download that meets a mere copy of the source's holding its
value brings that copy again from the source (it leaves when the source's row is gone).
"""

from dataclasses import dataclass, field

FAIL, SOURCE_WINS, PACKAGE_WINS = 'fail', 'source-wins', 'package-wins'
UPLOAD, DOWNLOAD, BIDIRECTIONAL = 'upload', 'download', 'bidirectional'


@dataclass
class Package:
    name: str
    area: tuple                                # (minx, miny, maxx, maxy), the source's CRS
    rows: dict = field(default_factory=dict)   # key -> row
    base: dict = field(default_factory=dict)   # key -> base row, or None for a local insert

    def write(self, key, row):
        """A local edit: row, or None to delete. The first change of a row saves its base.
        A write that changes nothing leaves no trace (the change triggers see no change)."""
        if self.rows.get(key) == (None if row is None else dict(row)):
            return
        if key not in self.base:
            self.base[key] = self.rows.get(key)
        if row is None:
            self.rows.pop(key, None)
        else:
            self.rows[key] = dict(row)

    def pending(self):
        """key -> (base, current) for every row whose current state differs from its base."""
        return {k: (b, self.rows.get(k)) for k, b in self.base.items() if self.rows.get(k) != b}

    def copy(self):
        return Package(self.name, self.area, {k: dict(r) for k, r in self.rows.items()},
                       {k: (dict(b) if b is not None else None) for k, b in self.base.items()})


def merge(base, pkg, src, policy):
    """The three-way merge of one row. Returns (result row or None, conflicted?).
    result is None when the row ends deleted; under 'fail' a conflicted result is meaningless."""
    if base is None:                          # a local insert: its globalid is new at the source
        return (pkg, False) if src is None else (pkg if policy != SOURCE_WINS else src, True)
    if pkg is None:                           # a local delete
        if src is None or src == base:
            return None, False
        return (src if policy == SOURCE_WINS else None), True
    if src is None:                           # a local update of a row the source deleted
        return (None if policy == SOURCE_WINS else pkg), True
    result, conflicted = {}, False
    for column in pkg:
        b, p, s = base.get(column), pkg[column], src.get(column)
        if p == b or p == s:
            result[column] = s
        elif s == b:
            result[column] = p
        else:
            conflicted = True
            result[column] = s if policy == SOURCE_WINS else p
    return result, conflicted


def intersects(row, area, geometry_column):
    """Whether a row's geometry meets the area (a row without geometry counts as outside).
    Points only: the driver's layers are POINT Z."""
    value = row.get(geometry_column)
    if value is None or value[0] != 'geom' or not value[1][1]:
        return False
    x, y = value[1][1][0][:2]
    minx, miny, maxx, maxy = area
    return minx <= x <= maxx and miny <= y <= maxy


def duplicates(rows, unique_columns):
    """Keys of the rows whose value in a UNIQUE column (table, column) another row also holds."""
    seen, dup = {}, set()
    for key, row in rows.items():
        for table, column in unique_columns:
            if key[0] != table or row.get(column, ('null', None))[0] == 'null':
                continue
            other = seen.setdefault((table, column, row[column]), key)
            if other != key:
                dup |= {key, other}
    return dup


def clashes(rows, key, result, unique_columns):
    """Whether writing result (None: deleting) as row key would duplicate a UNIQUE value."""
    if result is None:
        return False
    for table, column in unique_columns:
        value = result.get(column, ('null', None))
        if key[0] != table or value[0] == 'null':
            continue
        if any(k != key and k[0] == table and r.get(column) == value for k, r in rows.items()):
            return True
    return False


def storable(result, utf8_only):
    """Whether the source can hold a row's result (a deletion it always can)."""
    if result is None or not utf8_only:
        return True
    for kind, value in result.values():
        if kind == 'text':
            try:
                value.decode('utf-8')
            except UnicodeDecodeError:
                return False
    return True


def sync(source, package, direction, policy, geometry_column, unique_columns=(), utf8_only=False):
    """One uninterrupted sync. source: key -> row. Returns (exit code, new source, new package).
    utf8_only: the source stores UTF-8 text only (PostgreSQL), refusing other text."""
    up = direction in (UPLOAD, BIDIRECTIONAL)
    down = direction in (DOWNLOAD, BIDIRECTIONAL)
    new_source, new_package = dict(source), package.copy()
    pending = package.pending()
    settled, conflicted, refused = {}, False, set()
    if up:
        for key, (base, current) in pending.items():
            result, c = merge(base, current, source.get(key), policy)
            conflicted |= c
            settled[key] = result
        if conflicted and policy == FAIL:
            return 2, dict(source), package.copy()
        # A row written locally but back at its base (a revert) has nothing to upload and is
        # no change: it is not settled, it keeps its row until a download brings the source's.
        for key in set(package.base) - set(pending):
            new_package.base.pop(key, None)
        # The source checks a UNIQUE value at each row it writes: rows go up in any order
        # that frees each value before another row takes it; what no order lets through (an
        # exchange of two values, a value another source row keeps) is refused, and so is a
        # result the source cannot store.
        trial, waiting = dict(source), dict(settled)
        while True:
            applied = [k for k, result in waiting.items()
                       if storable(result, utf8_only) and not clashes(trial, k, result, unique_columns)]
            if not applied:
                break
            for key in applied:
                if waiting[key] is None:
                    trial.pop(key, None)
                else:
                    trial[key] = waiting[key]
                del waiting[key]
        refused = set(waiting)
        if refused and policy == FAIL:
            return 2, dict(source), package.copy()
        # A refused change is a conflict no policy settles: the row stays pending, untouched
        # on both sides, until 'resolve --take source' discards it (exit 2 meanwhile).
        for key in refused:
            del settled[key]
        new_source = trial
    # The package: settled rows take the merged result; without download, rows the source
    # changed stay as they were; with it, every row not pending comes from the source.
    still_pending = set(pending) - set(settled)
    held = {k: new_package.rows[k] for k in still_pending if k in new_package.rows}
    waiting = []
    for key in settled:
        new_package.base.pop(key, None)
        old = new_package.rows.pop(key, None)
        result = settled[key]
        if result is None or not intersects(result, package.area, geometry_column):
            continue
        if clashes(held, key, result, unique_columns):
            # A pending local row holds the merged row's unique value: it waits, keeping its copy.
            if old is not None:
                new_package.rows[key] = old
                waiting.append(key)
            continue
        new_package.rows[key] = dict(result)
        refresh_copies_in_the_way(new_package, key, result, new_source, set(pending), geometry_column, unique_columns)
    if down:
        for key in set(new_package.rows) | set(new_source):
            if key in still_pending or key in settled:
                continue
            new_package.base.pop(key, None)   # a reverted edit: nothing of its own to keep
            row = new_source.get(key)
            if row is not None and intersects(row, package.area, geometry_column):
                if clashes(held, key, row, unique_columns):
                    waiting.append(key)       # a pending local row holds its unique value: it waits
                    continue
                new_package.rows[key] = dict(row)
            else:
                new_package.rows.pop(key, None)
    # A row that waits keeps the copy it had, unless a row that came down took its value.
    for key in waiting:
        old = new_package.rows.get(key)
        if old is not None and clashes(new_package.rows, key, old, unique_columns):
            del new_package.rows[key]
    return (2 if refused else 0), new_source, new_package


def refresh_copies_in_the_way(package, key, result, source, pending, geometry_column, unique_columns):
    """After a settled row is written without download: a row that is only a copy of the
    source's (no pending change) and holds one of its unique values is stale, and is brought
    again from the source (or leaves, when the source's row is gone, outside the area, or
    itself in the way of another)."""
    for other, row in list(package.rows.items()):
        if other == key or other in pending or not clashes({key: result}, other, row, unique_columns):
            continue
        del package.rows[other]
        fresh = source.get(other)
        if fresh is not None and intersects(fresh, package.area, geometry_column) \
                and not clashes(package.rows, other, fresh, unique_columns):
            package.rows[other] = dict(fresh)
