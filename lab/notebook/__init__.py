"""The lessons in Jupyter: which harness a lesson's examples run on (`harnesses`, with the
`harness_choice` each returns and the `gaps` a student has filled), the figures of a run as a
timeline (`timeline`), a checkpoint's worked cases (`casebook`), lesson 16's loopback provider
and SDK models (`loopback`, `sdk`), and the notebook made from a lesson's walkthrough.py
(`ipynb`; `python -m lab.notebook` runs it).
"""
