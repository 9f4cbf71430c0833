"""Example Scrapy project: a generic news spider with scrapy-denoise enabled."""
