"""The console tests use the service tests' registry (real games plus the test game)."""

from tests.service.conftest import registry  # noqa: F401 - a fixture, used by name
