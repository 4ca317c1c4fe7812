from tests.fakes.fixtures import fake_openai, home

__all__ = ["fake_openai", "home"]
