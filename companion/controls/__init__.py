"""The controls: what players press (GPIO buttons, keys, touches) and the lights they see."""
