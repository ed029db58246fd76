// SPDX-License-Identifier: MIT
// The error line under a field: shown with the broker's message and a framed
// field; taken back as soon as the user edits the field, its line keeping its
// height so that nothing moves under the mouse; hidden by the next check.
#include "widgets/field_error.h"
#include "support/test_main.h"

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QTest>
#include <QVBoxLayout>
#include <QWidget>

using namespace relaydesk;

class FieldErrorTest : public QObject {
    Q_OBJECT
private slots:
    void editingTheField_takesTheMessageBack_keepsItsPlace()
    {
        QWidget form;
        auto *layout = new QVBoxLayout(&form);
        auto *field = new QLineEdit(&form);
        field->setObjectName(QStringLiteral("delay"));
        auto *error = new FieldError(field, &form);
        auto *below = new QLineEdit(&form);
        layout->addWidget(field);
        layout->addWidget(error);
        layout->addWidget(below);
        layout->addStretch(1);
        form.resize(400, 300);
        form.show();
        QVERIFY(QTest::qWaitForWindowExposed(&form));

        error->setMessage(QStringLiteral("DelaySeconds must be from 0 to 900."));
        QVERIFY(error->isVisible());
        QCOMPARE(error->objectName(), QStringLiteral("delayError"));
        QVERIFY(error->text().contains(QStringLiteral("0 to 900")));
        QTRY_VERIFY(below->y() > field->y() + field->height() + 5);
        const int belowAt = below->y();

        field->setFocus();
        QTest::keyClicks(field, QStringLiteral("5"));
        QVERIFY(error->message().isEmpty());
        QVERIFY(error->text().isEmpty());
        QVERIFY(error->isVisible());
        QApplication::processEvents();
        QCOMPARE(below->y(), belowAt); // nothing moved

        error->clearMessage(); // the next check found nothing wrong
        QVERIFY(!error->isVisible());
    }

    void aComboBoxChoice_takesTheMessageBack()
    {
        QComboBox combo;
        combo.addItems({QStringLiteral("a.fifo"), QStringLiteral("inbox")});
        FieldError error(&combo, nullptr);
        error.setMessage(QStringLiteral("A standard topic cannot deliver to a FIFO queue."));
        QVERIFY(!error.message().isEmpty());
        combo.setCurrentIndex(1);
        QVERIFY(error.message().isEmpty());
    }
};

RELAYDESK_TEST_MAIN(FieldErrorTest)
#include "field_error_test.moc"
