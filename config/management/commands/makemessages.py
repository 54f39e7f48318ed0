"""Django's makemessages, without msgmerge's fuzzy matching: a new sentence that looks like an
old one would otherwise arrive marked fuzzy with the old one's translation, which gettext then
ignores and a reviewer can miss; a new sentence is left empty, and the catalogue test names it."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]
