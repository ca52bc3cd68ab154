"""geopy's ArcGIS geocoder against magickey-cgi behind a web server (WebServiceEndToEndTests).

Usage: python3 geopy-check.py HOST:PORT. Prints one line per call: address, latitude, longitude.
"""
import sys

from geopy.geocoders import ArcGIS

geocoder = ArcGIS(scheme="http", domain=sys.argv[1], timeout=20)
for location in [
    geocoder.geocode("paris"),
    geocoder.geocode("sao paulo"),
    geocoder.reverse("48.85, 2.35"),
    geocoder.reverse((-33.87, 151.2)),
]:
    print(f"{location.address}\t{location.latitude}\t{location.longitude}")
print(len(geocoder.geocode("springfield", exactly_one=False)))
print(geocoder.reverse((0, -150), distance=1000))
