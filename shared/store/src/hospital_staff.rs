//! Hospital staff accounts (docs/decisions/0026-receiving-hospital.md): user items
//! with role HOSPITAL and the hospital they work at (`hospitalId`), made by admins
//! with the username and email claimed like any account's, on the condition that
//! the hospital exists; found per hospital on `gsi1` (`HOSPSTAFF#<hospital>`), for
//! the pushes of trips coming.

use super::{
    keys,
    table::Store,
    tx::{Label, Write},
    users::{UserItem, account_refused},
};
use crate::error::StoreError;
use domain::{
    audit::{Action, Note, Target},
    hospital,
    hospital_staff::{HospitalStaff, HospitalStaffRef, NewHospitalStaff},
    user::Role,
};

impl UserItem {
    /// The hospital staff account this item is, if it is one.
    pub(crate) fn hospital_staff(&self) -> Option<HospitalStaffRef> {
        let hospital_id = self.hospital_id?;
        self.user.role.is_hospital().then_some(HospitalStaffRef {
            id: self.user.id,
            hospital_id,
        })
    }
}

/// `store.hospital_staff()`: hospital staff accounts. Every method of the handle is in
/// this file.
#[derive(Clone, Copy)]
pub struct HospitalStaffAccounts<'a> {
    pub(super) store: &'a Store,
}

impl HospitalStaffAccounts<'_> {
    /// Creates a staff account tied to an existing hospital (404 otherwise, also for
    /// one removed meanwhile: the transaction checks it), with its username and
    /// email claimed like any user's (409 when taken).
    pub async fn create_hospital_staff(
        self,
        new: NewHospitalStaff,
    ) -> Result<HospitalStaff, StoreError> {
        let hospital_id = new.hospital_id;
        let hospital = self
            .store
            .hospitals()
            .hospital(hospital_id)
            .await?
            .ok_or_else(|| hospital::not_found(hospital_id))?;
        let id = self.store.next_id("user").await?;
        let account = &new.account;
        let item = UserItem {
            hospital_id: Some(hospital_id),
            // Its hospital's staff on `gsi1`: whose devices hear of trips coming.
            gsi1pk: Some(keys::hospital_staff(hospital_id)),
            gsi1sk: Some(keys::crew_in_ambulance(id)),
            ..UserItem::new(id, account, Role::Hospital, None)
        };
        let mut tx = item.account_tx(&account.username, &account.email);
        // Counted on the hospital, on the condition that it still exists.
        tx.push(
            Label::Hospital(hospital_id),
            Write::update(keys::hospital(hospital_id), "ADD staffCount :one")
                .exists()
                .value(":one", 1),
        );
        self.store.audit().push(
            &mut tx,
            Note::new(
                Action::HospitalStaffCreated,
                Target::hospital(hospital_id, &hospital.name),
            )
            .after(serde_json::json!({
                "staffId": id,
                "username": account.username.as_str(),
            })),
        );
        self.store.commit(tx).await.map_err(|e| {
            e.or_refused(|r| {
                account_refused(
                    &r,
                    Some((
                        Label::Hospital(hospital_id),
                        hospital::not_found(hospital_id).into(),
                    )),
                )
            })
        })?;
        Ok(HospitalStaff {
            id,
            username: item.user.username,
            email: item.user.email,
            phone_number: item.user.phone,
            hospital_id,
            hospital_name: hospital.name,
        })
    }
}
