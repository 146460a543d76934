"""Ratings of people from their ranked games at live tables (OpenSkill, Plackett-Luce)."""
