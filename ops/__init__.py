"""Operations: the workers' heartbeats and the health check that reads them."""
