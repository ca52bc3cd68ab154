#!/usr/bin/env python3
"""Simulate a population's visits over the embedded gazetteer, for bench/replay/replay.py.

Pinned and seeded: the same SEED and places.tsv give the same log, byte for byte.
Each person lives in one metropolitan area (a city of 300,000 or more with at least 25
gazetteer places within METRO_KM), with a home, a workplace and a few favourite places
among them, visited by time-of-day habits: work on weekday mornings, sometimes lunch
nearby, an evening place or home after work, outings at weekends. Now and then a new
place (a target the graph has never seen), sometimes kept as a favourite; once or twice
a trip to another metropolitan area, often in another country (the graph's habits point
home, hundreds of km away). The gazetteer makes the rest hard: neighbouring places share
words (Saint-…, San …, … Heights, sections named after their city).

Output, TSV on stdout: person, Unix time (UTC; run the tools with TZ=UTC), label (as
magickey-find prints it), latitude, longitude.

    python3 bench/replay/simulate.py > /tmp/visits.tsv
"""
import math
import random
import sys

SEED = 26
PEOPLE = 48
DAYS = 42
START = 1709510400  # 2024-03-04 00:00 UTC, a Monday
METRO_KM = 60
MIN_METRO_PLACES = 150
NEW_PLACE = 0.25     # an outing goes somewhere new
KEEP_NEW = 0.3       # a new place becomes a favourite
TRIPS = (1, 3)
HOME_LOGGED = 0.5  # people do not always say they are home       # trips per person
TSV = "Sources/WayfindPlacesData/places.tsv"


def km(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1, math.sqrt(h)))


def load():
    places = []
    with open(TSV, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        col = {n: i for i, n in enumerate(header)}
        for line in f:
            r = line.rstrip("\n").split("\t")
            name, region, country = r[col["name"]], r[col["admin1_name"]], r[col["country_name"]]
            parts = [name] + ([region] if region and region != name else []) + ([country] if country else [])
            places.append({
                "label": ", ".join(parts), "lat": float(r[col["latitude"]]), "lon": float(r[col["longitude"]]),
                "pop": int(r[col["population"]] or 0)})
    return places


def near(places, centre, radius):
    return [p for p in places if abs(p["lat"] - centre["lat"]) < radius / 100 and km((p["lat"], p["lon"]), (centre["lat"], centre["lon"])) <= radius]


def weighted(rng, items, weight):
    return rng.choices(items, weights=[weight(i) for i in items], k=1)[0]


def main():
    rng = random.Random(SEED)
    places = load()
    big = [p for p in places if p["pop"] >= 300_000]
    rng.shuffle(big)
    metros = []
    for c in big:
        if any(km((c["lat"], c["lon"]), (m[0]["lat"], m[0]["lon"])) < 2 * METRO_KM for m in metros):
            continue
        local = near(places, c, METRO_KM)
        if len(local) >= MIN_METRO_PLACES:
            metros.append((c, local))
        if len(metros) >= 200:
            break
    out = sys.stdout
    for person in range(PEOPLE):
        centre, local = rng.choice(metros)
        home = weighted(rng, local, lambda p: 1)
        work = weighted(rng, local, lambda p: 1)
        favourites = rng.sample(local, min(len(local), rng.randint(6, 15)))
        favourite_weights = [1 / (i + 1) ** 0.7 for i in range(len(favourites))]
        trip_days = set()
        trips = {}
        for _ in range(rng.randint(*TRIPS)):
            day = rng.randrange(7, DAYS - 4)
            other = rng.choice(metros)
            while other[0] is centre:
                other = rng.choice(metros)
            for d in range(day, day + rng.randint(2, 4)):
                trip_days.add(d)
                trips[d] = other
        visits = []

        def visit(day, hour, place):
            t = START + day * 86400 + int(hour * 3600) + rng.randrange(-1200, 1200)
            if visits and t <= visits[-1][0]:
                t = visits[-1][0] + 600
            if visits and visits[-1][1] is place:
                return
            visits.append((t, place))

        def outing():
            if rng.random() < NEW_PLACE:
                place = rng.choice(local)
                if rng.random() < KEEP_NEW and place not in favourites:
                    favourites.append(place)
                    favourite_weights.append(1 / len(favourites) ** 0.7)
                return place
            return rng.choices(favourites, weights=favourite_weights, k=1)[0]

        for day in range(DAYS):
            if day in trip_days:
                c, there = trips[day]
                if day - 1 not in trip_days:
                    visit(day, 9, c)
                for h in sorted(rng.sample([10, 12, 14, 16, 19, 21], rng.randint(2, 4))):
                    visit(day, h, rng.choice(there))
                if day + 1 not in trip_days:
                    visit(day, 23, home)
                continue
            weekday = day % 7 < 5
            if weekday:
                if rng.random() < 0.9:
                    visit(day, 8.5, work)
                    if rng.random() < 0.3:
                        visit(day, 12.5, outing())
                        visit(day, 13.5, work)
                for h in (17.5, 19, 21):
                    if rng.random() < 0.35:
                        visit(day, h, outing())
                if rng.random() < HOME_LOGGED:
                    visit(day, 20 if rng.random() < 0.5 else 18, home)
            else:
                for h in sorted(rng.sample([10, 12, 15, 17, 20], rng.randint(1, 3))):
                    visit(day, h, outing())
                    if rng.random() < 0.3:
                        visit(day, h + 1.5, home)
                if rng.random() < HOME_LOGGED:
                    visit(day, 22, home)
        for t, p in visits:
            out.write(f"{person}\t{t}\t{p['label']}\t{p['lat']}\t{p['lon']}\n")


if __name__ == "__main__":
    main()
