"""The pay screen's camera, fed by Chromium's fake camera with a video made from a real QR-bill
that another project published (Tests/corpus/camera): the hand shakes, then holds still, with
sensor noise, and loops. Opening the camera shows the live view with its frame; once the
picture holds still a still goes to the server, which reads the bill and fills the QR-bill form.
Headless Chromium on Linux has no BarcodeDetector, so this is the path of the browsers without
one; the code's text sent instead of a photo is checked through the same form below."""
import os
import random
import tempfile
import urllib.parse

from PIL import Image, ImageChops, ImageFilter
from selenium.webdriver.common.by import By

import webbase
from webbase import ARTIFACTS, BrowserTest

BILL = os.path.join(webbase.ROOT, "Tests", "corpus", "camera", "qrbill-minimal-smartive.jpg")
WIDTH, HEIGHT, FPS = 960, 540, 10


def camera_video(path, shaky=12, still=40, seed=7):
    """A YUV4MPEG2 file (what `--use-file-for-fake-video-capture` reads) of the bill's payment
    part on a table: `shaky` frames moved and turned by a hand, then `still` frames in place with
    a sensor's noise. why four seconds still: the page looks every 250 ms and wants a second of
    calm; on a busy machine its looks come later, and the loop must not end the calm first."""
    source = Image.open(BILL).convert("RGB")
    w, h = source.size
    # The QR code in the middle, as a customer holds it in the frame (the part around it shows too).
    part = source.crop((int(w * .01), 0, int(w * .845), int(h * .91)))
    scale = min(WIDTH / part.width, HEIGHT / part.height) * .9
    part = part.resize((int(part.width * scale), int(part.height * scale)), Image.BILINEAR)
    rng = random.Random(seed)

    def frame(dx, dy, angle, blur):
        canvas = Image.new("RGB", (WIDTH, HEIGHT), (118, 102, 84))
        turned = part.rotate(angle, expand=True, fillcolor=(118, 102, 84), resample=Image.BILINEAR)
        canvas.paste(turned, ((WIDTH - turned.width) // 2 + dx, (HEIGHT - turned.height) // 2 + dy))
        if blur:
            canvas = canvas.filter(ImageFilter.GaussianBlur(blur))
        noise = Image.effect_noise((WIDTH, HEIGHT), 6).convert("RGB")
        return ImageChops.add(canvas, noise, scale=1.0, offset=-128)

    with open(path, "wb") as out:
        out.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        frames = [frame(rng.randint(-45, 45), rng.randint(-30, 30), rng.uniform(-4, 4), 2.5) for _ in range(shaky)]
        frames += [frame(0, 0, 0, 0) for _ in range(still)]
        for image in frames:
            y, cb, cr = image.convert("YCbCr").split()
            out.write(b"FRAME\n")
            out.write(y.tobytes())
            out.write(cb.resize((WIDTH // 2, HEIGHT // 2), Image.BILINEAR).tobytes())
            out.write(cr.resize((WIDTH // 2, HEIGHT // 2), Image.BILINEAR).tobytes())


class CameraTest(BrowserTest):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="tresor-camera-")
        cls.video = os.path.join(cls.folder, "qrbill.y4m")
        camera_video(cls.video)

    def chrome_arguments(self):
        return super().chrome_arguments() + [
            "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={self.video}"]

    def test_the_camera_reads_a_held_still_bill_into_the_qr_bill_form(self):
        self.login()
        os.makedirs(ARTIFACTS, exist_ok=True)
        for mode in ["light", "dark"]:
            self.browser.get(webbase.BASE + f"/appearance/{mode}?back=/pay")
            self.wait_until(lambda b: b.find_element(By.CSS_SELECTOR, "[data-camera]").is_displayed())
            self.assert_fits_and_accessible()
            self.browser.save_screenshot(os.path.join(ARTIFACTS, f"camera-pay-{mode}.png"))
        self.browser.find_element(By.CSS_SELECTOR, "[data-camera]").click()
        view = self.browser.find_element(By.CSS_SELECTOR, ".camera")
        self.wait_until(lambda b: view.is_displayed() and b.execute_script("return document.querySelector('.camera video').videoWidth") == WIDTH)
        self.browser.save_screenshot(os.path.join(ARTIFACTS, "camera-view.png"))
        # The camera is live: the frame is over the video, closing is at hand.
        self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, ".camera-frame").is_displayed())
        self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, ".camera-close").is_displayed())
        self.assertFalse(self.browser.find_element(By.CSS_SELECTOR, ".camera-torch").is_displayed(), "no torch on this camera")
        # Held still, the still is read by the server: the QR-bill form, filled from the bill.
        self.wait_until(lambda b: b.find_elements(By.ID, "scan-notice"))
        self.assertEqual(urllib.parse.urlsplit(self.browser.current_url).path, "/pay/scan")
        read = self.browser.find_element(By.NAME, "qrbill_payload").get_attribute("value")
        self.assertTrue(read.startswith("SPC"), read)
        self.assertIn("CH4289144165265158476", read)
        self.assertIn("8000\nZürich\nCH", read.replace("\r\n", "\n"))
        # The camera was let go once the still was taken.
        self.assertEqual(self.browser.execute_script("return document.querySelectorAll('.camera:not([hidden])').length"), 0)

    def test_closing_the_camera_leaves_the_file_picker(self):
        self.login()
        self.browser.get(webbase.BASE + "/pay")
        self.browser.find_element(By.CSS_SELECTOR, "[data-camera]").click()
        self.wait_until(lambda b: b.find_element(By.CSS_SELECTOR, ".camera").is_displayed())
        self.browser.find_element(By.CSS_SELECTOR, ".camera-close").click()
        self.assertFalse(self.browser.find_element(By.CSS_SELECTOR, ".camera").is_displayed())
        live = self.browser.execute_script("return document.querySelector('.camera video').srcObject")
        self.assertIsNone(live, "the camera is released")
        self.assertEqual(urllib.parse.urlsplit(self.browser.current_url).path, "/pay")
        self.assertTrue(self.browser.find_element(By.ID, "photo").get_attribute("required"))

    def test_a_qr_code_read_by_the_browser_is_sent_as_text(self):
        """What a browser with BarcodeDetector sends: the code's text, no photo."""
        self.login()
        self.browser.get(webbase.BASE + "/pay")
        payload = "SPC\r\n0200\r\n1\r\nCH4289144165265158476\r\nS\r\nA\r\n\r\n\r\n8000\r\nZürich\r\nCH" + "\r\n" * 7 + "\r\n12.50\r\nCHF" + "\r\n" * 7 + "\r\nNON\r\n\r\n\r\nEPD"
        self.browser.execute_script("""const form = document.querySelector("form.scan");
            form.querySelector("input[name=qrbill_payload]").value = arguments[0];
            form.querySelector("input[type=file]").required = false;
            form.requestSubmit();""", payload)
        self.wait_until(lambda b: b.find_elements(By.ID, "scan-notice") or b.find_elements(By.CSS_SELECTOR, ".field-error[role=alert]:not([hidden])"))
        self.assertTrue(self.browser.find_elements(By.ID, "scan-notice"), self.browser.find_element(By.TAG_NAME, "main").text)
        self.assertIn("CH4289144165265158476", self.browser.find_element(By.NAME, "qrbill_payload").get_attribute("value"))
        self.assertEqual(self.browser.find_element(By.ID, "amount").get_attribute("value"), "12.50")
        # Neither a photo nor a code: the picker's error, nothing read.
        self.browser.get(webbase.BASE + "/pay")
        self.browser.execute_script("""const form = document.querySelector("form.scan");
            form.querySelector("input[type=file]").required = false;
            form.requestSubmit();""")
        self.wait_until(lambda b: b.find_elements(By.ID, "photo-error"))
        self.assertFalse(self.browser.find_elements(By.ID, "scan-notice"))
