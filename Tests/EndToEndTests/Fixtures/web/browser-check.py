"""The search page of examples/web in headless Chromium through selenium
(WebServiceEndToEndTests): type "par", see Paris, choose it, read its coordinates.

Usage: python3 browser-check.py URL CHROMIUM CHROMEDRIVER. Prints the suggestions, one a
line, an empty line, then the chosen place's label and coordinates.
"""
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

url, chromium, chromedriver = sys.argv[1:4]
options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
    options.add_argument(argument)
options.binary_location = chromium
driver = webdriver.Chrome(options=options, service=Service(chromedriver))
try:
    driver.get(url)
    driver.find_element(By.ID, "place").send_keys("par")
    wait = WebDriverWait(driver, 20)

    def paris(d):
        return next((b for b in d.find_elements(By.CSS_SELECTOR, "#suggestions button") if b.text.startswith("Paris, ")), None)

    button = wait.until(paris)
    for suggestion in driver.find_elements(By.CSS_SELECTOR, "#suggestions button"):
        print(suggestion.text)
    print()
    button.click()
    coordinates = wait.until(lambda d: d.find_element(By.ID, "coordinates").text or None)
    print(driver.find_element(By.ID, "label").text)
    print(coordinates)
finally:
    driver.quit()
