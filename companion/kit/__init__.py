"""The physical kit: tag texts, player colours and board layouts."""
