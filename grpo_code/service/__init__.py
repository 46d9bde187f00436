"""The sandbox as an HTTP service (``grpo-code serve``): our ``/v1/jobs`` and SandboxFusion's
``/run_code``, with the largest limits a request may ask for. It imports no other wing."""
