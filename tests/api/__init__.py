"""API tests: HTTP in, status codes, problem codes, headers and who may see what out."""

# The password ``make_user`` gives a user unless told otherwise. Long enough for the
# password validators, which only registration runs.
PASSWORD = "correct horse battery staple"
