"""The embedded default's broker: kombu's filesystem transport, with every message complete
before a worker can see it.

kombu creates a message's file in the queue folder and only then writes it, so a worker that
lists the folder in between takes an empty message, fails to decode it and stops with
"Unrecoverable error: JSONDecodeError" (celery/kombu#1551, open): bots and turn clocks stop
until someone restarts it. Here a message is written under a name no queue reads
(`….msg.part`) and renamed into place, which is atomic within one file system.
"""

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        path = os.path.join(self.data_folder_out, name)
        partial = f"{path}.part"
        try:
            with open(partial, "wb") as message:
                message.write(str_to_bytes(dumps(payload)))
            os.replace(partial, path)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {path!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
