"""Chancellery: the table service, storage, scheduler and front ends (Discord, console)."""
