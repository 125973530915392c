from django.dispatch import Signal

token_expired: Signal
