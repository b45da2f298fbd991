"""The providers under test: served in the test process, reattached, or installed from a local directory.

``factory`` holds how a test names them (and how Terraform attaches to one, ``TF_REATTACH_PROVIDERS``);
``server`` serves provider objects over gRPC; ``wire`` holds the protocol pieces ``tf`` lacks;
``planning`` is what the runner does with the providers it serves: a plan made in passes until they
agree with it.

Importing these modules is cheap: ``tf`` and ``grpc`` (the ``providers`` extra) are imported
only when a server starts.
"""
