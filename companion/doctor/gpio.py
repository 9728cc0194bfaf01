"""What the button and light checks share: the fixes for GPIO that fails."""

from companion.doctor.host import on_a_pi


def no_gpio_fix(leave_out: str) -> str:
    """What to do when no GPIO library could be loaded, on a Pi or elsewhere."""
    if on_a_pi():
        return (
            "install the GPIO library: `sudo apt install python3-lgpio`, with the virtual "
            "environment made with --system-site-packages (run hardware/install again)"
        )
    return (
        f"this machine has no GPIO: run the doctor on the Pi, or leave this out with "
        f"{leave_out} (GPIOZERO_PIN_FACTORY=mock tries it on pretend pins)"
    )


def pin_in_use_fix(option: str) -> str:
    """What to do when a pin is taken or cannot be used."""
    return (
        "stop `companion play` (or its service) first, since it holds the pins; or give "
        f"free pins with {option}"
    )
