"""Content pools for generated layouts: palettes, event names, copy, prices.

Picked with the task's ``numpy.random.Generator`` so the same seed always
gives the same content. Palettes pair a background with ink and accent
colours that pass WCAG AA (4.5:1) for the text drawn on them.
"""

from __future__ import annotations

import numpy as np

#: (background, ink, muted ink, accent, accent label, image top, image bottom)
PALETTES: list[tuple[str, str, str, str, str, str, str]] = [
    ("#fbf7f0", "#1d1a16", "#4a4238", "#c2410c", "#ffffff", "#f4a259", "#5b8e7d"),
    ("#f2f5f9", "#0f172a", "#334155", "#1d4ed8", "#ffffff", "#93c5fd", "#1e3a8a"),
    ("#fffdf5", "#14231c", "#3b4a42", "#047857", "#ffffff", "#a7f3d0", "#065f46"),
    ("#111827", "#f9fafb", "#d1d5db", "#facc15", "#111827", "#fde68a", "#7c2d12"),
    ("#fdf2f8", "#3b0a24", "#6b2146", "#be185d", "#ffffff", "#f9a8d4", "#831843"),
    ("#0b2e33", "#f1faee", "#cfe3e0", "#e76f51", "#ffffff", "#e9c46a", "#264653"),
]

EVENTS = [
    ("Harbour Jazz Night", "Six bands on the old pier",
     "An evening of live jazz, street food and late ferries home."),
    ("Autumn Makers Market", "Crafts, coffee and vinyl",
     "Over sixty local makers under one roof, with workshops for kids."),
    ("Open Science Evening", "Talks you can follow",
     "Researchers explain their work in ten minutes, then take your questions."),
    ("Riverside 10K Run", "Flat, fast and scenic",
     "A certified course along the river, chip timing and medals for all."),
    ("Small Press Book Fair", "Zines, poetry, comics",
     "Independent publishers from across the region, readings every hour."),
    ("Midsummer Film Club", "Classics under the stars",
     "Outdoor screenings of restored films, bring a blanket and friends."),
    ("Community Garden Day", "Plant, swap, share",
     "Seed swaps, composting tips and a long table lunch in the garden."),
    ("City Chamber Choir", "Winter concert series",
     "Music by Tallis, Pärt and Whitacre in the candlelit cathedral."),
]
VENUES = ["Pier 4, Old Harbour", "The Corn Exchange", "Riverside Park", "Town Hall, Main St",
          "St Anne's Church", "Northside Library", "The Glasshouse", "Market Square"]
DAYS = ["Fri", "Sat", "Sun", "Thu"]
MONTHS = ["March", "April", "May", "June", "July", "September", "October", "November"]
CTAS = ["Book now", "Get tickets", "Register", "Join us", "Learn more", "Sign up", "Shop now", "RSVP"]
BRANDS = ["Northwind", "Lumen", "Kestrel", "Halcyon", "Bramble", "Orbit", "Juniper", "Atlas"]
MAGAZINES = ["FIELD NOTES", "THE QUARTERLY", "MERIDIAN", "HARVEST", "SIGNAL", "PARALLAX"]
COVER_LINES = [
    "The quiet return of the night train", "How cities learned to love rivers again",
    "Inside the seed vaults of the north", "Ten cafés worth the detour", "Why we still write letters",
    "A week with the lighthouse keepers", "The new rules of small gardens", "Mapping the last dark skies",
    "What bees know about architecture", "The craft of slow bread",
]
PRODUCTS = [
    ("Weekend Sale", "Up to 40% off outdoor gear"), ("New Season Coffee", "Single origin, roasted weekly"),
    ("Cycle Service Week", "Full tune-up, same day"), ("Studio Pottery Classes", "Six evenings, all levels"),
    ("Spring Plant Sale", "Herbs, perennials and fruit trees"), ("Language Café", "Practise with neighbours"),
]
FLYER_ITEMS = [
    "Free entry before 6 pm", "Step-free access throughout", "Food stalls and vegan options",
    "Family area with games", "Bike parking at the gate", "Cash and card accepted",
    "Talks every half hour", "Live music from 7 pm", "Dogs welcome on a lead", "Refill your bottle for free",
]
SLIDE_TOPICS = [
    ("Quarterly Review", "Growth came from returning customers",
     ["Repeat orders up 18%", "Support tickets down a third", "Two new regions live", "Churn below 3%"]),
    ("Field Study Results", "Three sites, one clear pattern",
     ["Soil moisture tracks canopy cover", "Pollinator visits doubled", "Sensor uptime 99.2%", "Next: winter survey"]),
    ("Product Roadmap", "What ships before summer",
     ["Offline mode", "Shared workspaces", "Faster export", "Accessibility audit"]),
    ("Onboarding Plan", "Your first two weeks",
     ["Meet the team", "Set up your tools", "Shadow a release", "Pick a first project"]),
]
QUOTES = [
    ("Design is the silent ambassador of your brand.", "Paul Rand"),
    ("Good design is as little design as possible.", "Dieter Rams"),
    ("Simplicity is about subtracting the obvious and adding the meaningful.", "John Maeda"),
    ("Whitespace is to be regarded as an active element, not a passive background.", "Jan Tschichold"),
]


def pick(rng: np.random.Generator, items: list) -> object:
    """One item of ``items`` chosen by ``rng``."""
    return items[int(rng.integers(len(items)))]


def date_text(rng: np.random.Generator) -> str:
    """A date line such as ``Sat 14 June · 7 pm``."""
    return f"{pick(rng, DAYS)} {int(rng.integers(1, 29))} {pick(rng, MONTHS)} · {int(rng.integers(5, 10))} pm"


def price_text(rng: np.random.Generator) -> str:
    """A price such as ``£12`` or ``€24``."""
    return f"{pick(rng, ['£', '€', '$'])}{int(rng.integers(3, 60))}"


__all__ = ["PALETTES", "EVENTS", "VENUES", "CTAS", "BRANDS", "MAGAZINES", "COVER_LINES", "PRODUCTS",
           "FLYER_ITEMS", "SLIDE_TOPICS", "QUOTES", "pick", "date_text", "price_text"]
